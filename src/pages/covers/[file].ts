/**
 * Each book's original cover at a stable address (/covers/{id}.png or .jpg): what the database rows, emails,
 * payment pages and social previews point at, since those need a plain JPEG or PNG that outlives a build.
 */
import { readFile } from 'node:fs/promises';
import type { APIRoute, GetStaticPaths } from 'astro';
import { bookCoverUrl, getBooks, type Book } from '@/features/catalog/books';

export const getStaticPaths = (async () => (await getBooks()).map((book) => ({ params: { file: bookCoverUrl(book).replace('/covers/', '') }, props: { book } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const { cover } = (props as { book: Book }).book.data;
  const fsPath = (cover as typeof cover & { fsPath: string }).fsPath;
  return new Response(await readFile(fsPath), { headers: { 'content-type': `image/${cover.format === 'jpg' ? 'jpeg' : cover.format}` } });
};
