/** A throwaway embedded database for a test: a copy of the one the global set-up prepared (postgres-global-setup.ts). */
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { DataLocation } from '../../local/backend/database';

let image: Blob | undefined;

export function embeddedCopy(): DataLocation {
  image ??= new Blob([readFileSync(inject('embeddedImage'))]);
  return { copyOf: image };
}
