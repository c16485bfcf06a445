/**
 * Netlify sends text with brotli or gzip; the local server does the same, so what Lighthouse, the audit
 * and a developer's browser see weighs what visitors download. A compressed file is kept in memory until
 * the file changes (dist/ only changes on a rebuild).
 */
import { readFile, stat } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

const COMPRESSIBLE = /^(text\/|application\/(json|xml|javascript|manifest\+json)|image\/svg\+xml)/;

/** The encoding to answer with: brotli if the client takes it, else gzip, else none (q=0 means "not this"). */
export function chooseEncoding(acceptEncoding: string | undefined, contentType: string): Encoding | undefined {
  if (!acceptEncoding || !COMPRESSIBLE.test(contentType)) return undefined;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (!q || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

const cache = new Map<string, { mtimeMs: number; body: Buffer }>();

export async function compressedFile(file: string, encoding: Encoding): Promise<Buffer> {
  const { mtimeMs } = await stat(file);
  const key = `${encoding}:${file}`;
  const cached = cache.get(key);
  if (cached?.mtimeMs === mtimeMs) return cached.body;
  const raw = await readFile(file);
  // A middle brotli quality: close to the best ratio at a small fraction of quality 11's time.
  const body = encoding === 'br' ? brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }) : gzipSync(raw);
  cache.set(key, { mtimeMs, body });
  return body;
}
