/**
 * How the back office talks to the database and the staff functions, as the signed-in staff member: staff RPCs
 * and RLS-protected tables (the database checks the role) and POSTs to /api/admin-* with the staff member's token.
 * Each screen's reads and writes live beside it (orders-api, stock-api, mail-api, sales-api, codes-api).
 */
import * as z from '@/lib/zod-mini';
import { getSupabase } from '@/lib/supabase/client';
import { postJson } from '@/lib/post-json';

/** A refusal to show the publisher; `status` is the staff function's (400: the figures sent are wrong). */
export class BackOfficeError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The field types the screens' schemas are built from. */
export const money = z.coerce.number();
export const text = z.string();
export const maybeText = z.nullable(z.string());
export const optionalText = z.optional(z.string());
/** Checkout stores the shopper's own field names (addressLine1, postalCode, phone); older rows use line1, postal_code. */
export const address = z.looseObject({
  addressLine1: optionalText,
  addressLine2: optionalText,
  line1: optionalText,
  line2: optionalText,
  city: optionalText,
  state: optionalText,
  postalCode: optionalText,
  postal_code: optionalText,
  country: optionalText,
  phone: optionalText,
});

/** A database or network answer as one sentence for the publisher. */
function fail(error: { code?: string; message?: string }, what: string): never {
  if (error.code === '42501') throw new BackOfficeError("You don't have access to the back office.");
  throw new BackOfficeError(`Could not ${what}: ${error.message ?? 'unknown error'}`);
}

/** One keyset page of a list: its rows, and the cursor of the page after it (null on the last). */
export interface Page<T> {
  rows: T[];
  next: string | null;
}

/** Calls a staff function of the database and checks its answer; a refusal or failure throws the sentence to show. */
export async function rpc<T>(schema: { parse(data: unknown): T }, fn: string, args: Record<string, unknown>, what: string): Promise<T> {
  const { data, error } = await (await getSupabase()).rpc(fn, args);
  if (error) fail(error, what);
  return schema.parse(data);
}

/** A list's page as the database answers it, `{<key>: [...], next}`, as rows and the next cursor. */
export async function rpcPage<T>(row: z.ZodMiniType<T>, key: string, fn: string, args: Record<string, unknown>, what: string): Promise<Page<T>> {
  const page = await rpc(z.looseObject({ next: z.nullable(z.string()) }), fn, args, what);
  return { rows: z.array(row).parse(page[key]), next: page.next };
}

export const isStaff = () => rpc(z.boolean(), 'is_staff', {}, 'check your access');

/** Every page of a list, one after another (for what must hold all of it, such as the packing slips to print). */
export async function allPages<T>(page: (cursor: string | null) => Promise<Page<T>>): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = null;
  do {
    const next: Page<T> = await page(cursor);
    rows.push(...next.rows);
    cursor = next.next;
  } while (cursor);
  return rows;
}

/** Every row of a table staff read directly (its policies let only them), newest first: the columns its schema names. */
export async function newestFirst<T extends z.ZodMiniObject>(table: string, row: T, what: string): Promise<z.infer<T>[]> {
  const { data, error } = await (await getSupabase()).from(table).select(Object.keys(row.shape).join(', ')).order('created_at', { ascending: false });
  if (error) fail(error, what);
  return z.array(row).parse(data);
}

/** POSTs to a staff function with the publisher's token; resolves to its answer, or throws its message. */
export async function postAsStaff(path: string, request: unknown): Promise<Record<string, unknown>> {
  const { data } = await (await getSupabase()).auth.getSession();
  const { ok, status, body } = await postJson(path, request, { authorization: `Bearer ${data.session?.access_token ?? ''}` });
  if (!ok) throw new BackOfficeError(typeof body.error === 'string' ? body.error : 'Something went wrong on our side. Please try again in a moment.', status);
  return body;
}

/** A staff action's answer as the sentence to show the publisher. */
export async function postForMessage(path: string, request: unknown): Promise<string> {
  const body = await postAsStaff(path, request);
  return typeof body.message === 'string' ? body.message : 'Done.';
}
