/**
 * The catalog as the database has it now: every product for sale with its live price and stock, read once
 * per page (the catalog is a few books) and shared by the idle refresh and every island on the page.
 */
import { listProducts } from './catalog';
import type { Product } from './product';

let read: Promise<Product[]> | undefined;

export function liveCatalog(): Promise<Product[]> {
  read ??= listProducts();
  return read;
}
