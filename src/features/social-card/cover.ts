/**
 * The book covers the social cards show: the one place the card generator learns where a cover file is.
 * Each book's cover comes from its file in the catalog folder (content/books, or CATALOG_DIR).
 */
import { resolve } from 'node:path';
import { catalogFolder, readBooks } from '../catalog/book-files';
import { cardBook } from './card-path';

/** The cover file for a page's card (its own book on a product page, else the featured book's). */
export function coverFiles(): (pagePath: string) => string {
  const folder = catalogFolder();
  const books = readBooks(folder);
  return (pagePath) => {
    const book = cardBook(pagePath, books);
    if (!book) throw new Error(`${folder} has no featured book for the social cards`);
    return resolve(folder, book.cover);
  };
}
