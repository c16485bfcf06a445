import type { ReactNode } from 'react';

type SectionProps = { id: string; title: ReactNode; className?: string; 'data-testid'?: string; children?: ReactNode };

/** A section a screen reader names by its heading: `id` is the heading's, which `aria-labelledby` points at. */
function Named({ id, title, className, heading: Heading, headingClassName, children, ...rest }: SectionProps & { heading: 'h2' | 'h3'; headingClassName: string }) {
  return (
    <section aria-labelledby={id} className={className} {...rest}>
      <Heading id={id} className={headingClassName}>
        {title}
      </Heading>
      {children}
    </section>
  );
}

/** A whole screen or page part under a large heading (each back-office screen, the account's lists). */
export function Panel(props: SectionProps) {
  return <Named {...props} heading="h2" headingClassName="text-2xl font-bold" />;
}

/** A part of a screen or page under a small heading: an h3 inside a screen, an h2 on a page of its own. */
export function Section({ level = 3, headingClassName = 'text-lg font-bold', ...props }: SectionProps & { level?: 2 | 3; headingClassName?: string }) {
  return <Named {...props} heading={level === 2 ? 'h2' : 'h3'} headingClassName={headingClassName} />;
}

/** One record's screen in the back office: the way back to its list, then the record, named by its heading (`id`). */
export function RecordPanel({ id, back, backLabel, children }: { id: string; back: string; backLabel: string; children?: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-4">
      <a href={back} className="font-semibold text-navy underline">
        ← {backLabel}
      </a>
      {children}
    </section>
  );
}
