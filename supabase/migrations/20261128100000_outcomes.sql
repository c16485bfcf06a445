-- One rule, one place: who bought an order is written once in SQL and read by every screen, email, slip and CSV;
-- the TypeScript does not work it out again.

-- Who bought the order (public.order_buyer_name: the payer's name; else, for an order that is not a gift, its
-- delivery name; null when unknown), kept on the row so that whatever reads an order reads the one answer: the
-- functions' emails, tax invoices and payment page, and the back office's detail and slips (order_detail's
-- to_jsonb). Stored, since the rule is immutable; a change to the rule is a new migration that recomputes it.
alter table public.orders add column bought_by text generated always as (public.order_buyer_name(buyer_name, customer_name, is_gift)) stored;
comment on column public.orders.bought_by is 'who bought the order, as the shop names them everywhere: from public.order_buyer_name';
-- Writing an order computes the column, so the role that writes orders runs the rule.
grant execute on function public.order_buyer_name(text, text, boolean) to service_role;
