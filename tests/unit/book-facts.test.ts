/**
 * A book's facts live only in its file in content/books: no code, database file or public asset of the shop
 * states a book's title, price, weight or ISBN. (Tests, editorial copy in content/ and docs may name a book.)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBooks, type BookFile } from '@/features/catalog/book-files';

const SCANNED = ['src', 'functions', 'local', 'supabase', 'public', 'astro.config.mjs', 'netlify.toml', 'package.json', '.env.example'];
const TEXT_FILE = /\.(ts|tsx|astro|mjs|js|sql|toml|json|css|svg|html|xml|txt|yaml|yml|example)$/;
const IGNORED = new Set(['.data', 'node_modules']);

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return TEXT_FILE.test(path) ? [path] : [];
  return readdirSync(path)
    .filter((name) => !IGNORED.has(name))
    .flatMap((name) => files(join(path, name)));
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** 22 matches 22, 22.0 and 22.00; 16.95 matches 16.95. */
const amount = (value: number) => `${escapeRegExp(String(value))}(?:\\.0+)?(?![\\d.])`;

/** Which of the book's facts the text states. */
function bookFactsIn(text: string, book: Pick<BookFile, 'title' | 'price' | 'weightGrams' | 'isbn'>): string[] {
  const found: string[] = [];
  if (text.toLowerCase().includes(book.title.toLowerCase())) found.push(`title "${book.title}"`);
  const price = new RegExp(`\\bprice\\w*["']?\\s*[:=,]\\s*["']?${amount(book.price)}|\\$${escapeRegExp(book.price.toFixed(2))}\\b|['"]${escapeRegExp(book.price.toFixed(2))}['"]`, 'i');
  if (price.test(text)) found.push(`price ${book.price}`);
  const weight = new RegExp(`\\bweight\\w*["']?\\s*[:=,]\\s*["']?${amount(book.weightGrams)}|\\b${amount(book.weightGrams)}\\s?g\\b`, 'i');
  if (weight.test(text)) found.push(`weight ${book.weightGrams}`);
  if (book.isbn && text.replace(/[\s-]/g, '').includes(book.isbn)) found.push(`ISBN ${book.isbn}`);
  return found;
}

describe('book facts live in content/books only', () => {
  const books = readBooks(join('content', 'books'));

  it('no code, database file or public asset states a book’s title, price, weight or ISBN', () => {
    const stated = SCANNED.flatMap(files).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return books.flatMap((book) => bookFactsIn(text, book).map((fact) => `${file}: ${fact}`));
    });
    expect(stated).toEqual([]);
  });

  it('the check finds each kind of fact where it is stated', () => {
    const book = { title: 'A Rosary for Little Hands', price: 16.95, weightGrams: 180, isbn: '9781234567897' };
    expect(bookFactsIn(`const TITLE = 'a rosary for little hands';`, book)).toEqual(['title "A Rosary for Little Hands"']);
    expect(bookFactsIn(`insert into products (price) values (16.95); -- price: 16.95`, book)).toEqual(['price 16.95']);
    expect(bookFactsIn(`<p>Only $16.95</p>`, book)).toEqual(['price 16.95']);
    expect(bookFactsIn(`{ weightGrams: 180 }`, book)).toEqual(['weight 180']);
    expect(bookFactsIn(`weighs 180 g`, book)).toEqual(['weight 180']);
    expect(bookFactsIn(`ISBN 978-1-234567-89-7`, book)).toEqual(['ISBN 9781234567897']);
    expect(bookFactsIn(`price: 169.5, weight: 1800, 16.950001`, book)).toEqual([]);
  });
});
