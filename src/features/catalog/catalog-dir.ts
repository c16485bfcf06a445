/** The folder of book files: content/books, or CATALOG_DIR (relative to the project) where a build or a sync is pointed elsewhere. */
const DEFAULT_CATALOG_DIR = 'content/books';

export function catalogDir(env: Record<string, string | undefined> = process.env): string {
  return env.CATALOG_DIR?.trim() || DEFAULT_CATALOG_DIR;
}
