-- The catalog. Copy for each product lives in content/books/; this holds what changes: price and stock.
insert into public.products (id, title, description, price, image_url, category, stock, weight, dimensions, featured)
values (
  'book-10-reasons',
  '10 Reasons Why Being Catholic is Awesome!',
  'A bright hardcover counting board book for ages 3-9. Count from ONE Holy Catholic and Apostolic Church to the TEN Commandments. Written and published in Sydney.',
  22.00,
  '/images/book-10-reasons.svg',
  'Children''s Books',
  100,
  300,
  '{"length": 21.6, "width": 21.6, "height": 0.6}',
  true
)
on conflict (id) do nothing;
