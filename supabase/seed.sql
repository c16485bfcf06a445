-- Local demo data that is not a book fact. The catalog rows come from the book files in content/books
-- (`npm run catalog:sync`, which runs before this on a fresh local database); stock belongs to the database
-- and the back office, so a fresh local database starts every book with 100 copies.
update public.products set stock = 100 where stock = 0;
