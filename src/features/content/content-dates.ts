/**
 * The date each page's content last changed, for the sitemap's `lastmod`: a post's own date, a legal
 * page's `updated`, and otherwise the last commit that touched the page's content file (its source
 * page where it has no content file). Runs in the Astro config, so it reads files rather than collections.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readBooks } from '../catalog/book-files';
import { postPath, productPath } from '../../lib/paths';

type Dates = Map<string, string>;

/** Last commit date (YYYY-MM-DD) of every file under the given folders, from one `git log`. */
function lastCommitDates(root: string, folders: string[]): Dates {
  const dates: Dates = new Map();
  try {
    const log = execFileSync('git', ['log', '--format=@%cs', '--name-only', '--', ...folders], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    let current = '';
    for (const line of log.split('\n')) {
      if (line.startsWith('@')) current = line.slice(1);
      else if (line && !dates.has(line)) dates.set(line, current);
    }
  } catch {
    // No git history (an exported tree): file times stand in below.
  }
  return dates;
}

const frontmatterDate = (text: string, field: string) => text.match(new RegExp(`^${field}:\\s*["']?(\\d{4}-\\d{2}-\\d{2})`, 'm'))?.[1];
const names = (dir: string, ext: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(ext))
        .map((f) => f.slice(0, -ext.length))
    : [];
const newest = (dates: Array<string | undefined>) =>
  dates
    .filter((d): d is string => Boolean(d))
    .sort()
    .at(-1);

/** Path → `YYYY-MM-DD` for every page that has content; the sitemap leaves the rest without `lastmod`. */
export function contentDates(root: string): Map<string, string> {
  const commits = lastCommitDates(root, ['content', 'src/pages']);
  const changed = (file: string) => commits.get(file) ?? (existsSync(join(root, file)) ? statSync(join(root, file)).mtime.toISOString().slice(0, 10) : undefined);
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  const pages = new Map<string, string | undefined>();

  const posts = names(join(root, 'content/blog'), '.mdx').map((id) => [postPath(id), frontmatterDate(read(`content/blog/${id}.mdx`), 'date')] as const);
  posts.forEach(([path, date]) => pages.set(path, date));
  pages.set('/blog', newest(posts.map(([, date]) => date)));

  for (const id of names(join(root, 'content/legal'), '.mdx')) pages.set(`/${id}`, frontmatterDate(read(`content/legal/${id}.mdx`), 'updated'));
  for (const slug of names(join(root, 'content/landing'), '.yaml')) pages.set(`/${slug}`, changed(`content/landing/${slug}.yaml`));
  const books = names(join(root, 'content/books'), '.mdx');
  for (const id of books) pages.set(productPath(id), changed(`content/books/${id}.mdx`));
  const featured = readBooks(join(root, 'content/books')).find((book) => book.featured);
  if (featured) pages.set('/book', changed(`content/books/${featured.id}.mdx`));
  pages.set('/store', newest(books.map((id) => changed(`content/books/${id}.mdx`))));
  pages.set('/', changed('content/site/home.yaml'));
  pages.set('/about', changed('content/site/about.yaml'));
  pages.set('/contact', changed('src/pages/contact.astro'));

  return new Map([...pages].filter((entry): entry is [string, string] => Boolean(entry[1])));
}
