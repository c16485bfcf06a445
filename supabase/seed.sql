-- Local demo data that is not a book fact. The catalog rows come from the book files in content/books
-- (`npm run catalog:sync`, which runs before this on a fresh local database); stock belongs to the database
-- and the back office, so a fresh local database starts every book with 100 copies, and a book on pre-order (a
-- release date ahead) with no stock and an allocation of 50 copies to pre-order.
update public.products set stock = 100 where stock = 0 and release_date is null;
update public.products set preorder_allocation = 50 where release_date is not null and released_at is null and preorder_allocation = 0;
