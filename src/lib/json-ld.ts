import type { Thing, WithContext } from 'schema-dts';

/** Serialises structured data for a `<script type="application/ld+json">`, safe against `</script>` in text. */
export function serializeJsonLd(data: WithContext<Thing> | WithContext<Thing>[]): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
