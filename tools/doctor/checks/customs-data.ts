/**
 * Customs data in the hosted catalog: every book on sale needs a customs description, an HS code and a country of
 * origin, or its parcels abroad cannot be declared (a US parcel without them is returned). Reads the products the
 * catalog sync wrote: GET {project}/rest/v1/products?select=…&for_sale=eq.true with the service-role key.
 */
import { CUSTOMS_COLUMNS as COLUMN, CUSTOMS_FIELDS } from '../../../src/features/customs/customs-data';
import type { CheckResult, DoctorContext } from '../types';
import { errorMessage, isCheckResult, reach, skip } from './common';

const NAME = 'Customs data';

export async function checkCustomsData(context: DoctorContext): Promise<CheckResult> {
  const { env } = context;
  const projectUrl = env.SUPABASE_URL ?? env.PUBLIC_SUPABASE_URL;
  const key = env.SUPABASE_SERVICE_ROLE_KEY;
  if (!projectUrl || !key) return skip(NAME, 'needs SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (see Required variables)');
  let url: string;
  try {
    url = new URL(`rest/v1/products?${new URLSearchParams({ select: `id,title,${Object.values(COLUMN).join(',')}`, for_sale: 'eq.true', order: 'id' })}`, `${projectUrl.replace(/\/$/, '')}/`).href;
  } catch {
    return skip(NAME, `${projectUrl} is not a URL (see Required variables)`);
  }
  const answer = await reach(context, { name: NAME, what: projectUrl }, url, { headers: { apikey: key, authorization: `Bearer ${key}`, accept: 'application/json' } });
  if (isCheckResult(answer)) return answer;
  if (!answer.ok || !Array.isArray(answer.body)) {
    const message = errorMessage(answer.body);
    return {
      name: NAME,
      status: 'fail',
      detail: `the catalog could not be read (${answer.status}${message ? `: ${message}` : ''})`,
      fix: /column/i.test(message ?? '')
        ? 'The database lacks the customs columns: apply the migrations (supabase db push), then run npm run catalog:sync.'
        : 'Check SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (Supabase → Project Settings → API), then run the doctor again.',
    };
  }
  const books = answer.body as Array<Record<string, unknown>>;
  const lacking = books
    .map((book) => ({ id: String(book.id), missing: CUSTOMS_FIELDS.filter((field) => typeof book[COLUMN[field]] !== 'string' || !(book[COLUMN[field]] as string).trim()) }))
    .filter((book) => book.missing.length > 0);
  if (lacking.length === 0) return { name: NAME, status: 'pass', detail: `every book on sale has a customs description, HS code and origin (${books.length} book${books.length === 1 ? '' : 's'})` };
  return {
    name: NAME,
    status: 'fail',
    detail: `${lacking.length} book${lacking.length === 1 ? '' : 's'} on sale without customs data, so parcels abroad cannot be declared:\n${lacking.map((book) => `  ${book.id}: ${book.missing.join(', ')}`).join('\n')}`,
    fix: 'Add customsDescription (e.g. "Printed children\'s picture book"), hsCode (4903.00 for picture books) and originCountry (where it was printed, e.g. AU) to each book\'s file in content/books, commit, and run npm run catalog:sync.',
  };
}
