/**
 * Asks the server to drop the CDN's cached live price and stock after the publisher set a product's stock,
 * so the shop pages show it at once rather than after the cache period. The stock is already saved when
 * this runs: a failure only means the pages catch up by themselves within a minute, and the message says so.
 */
import { getSupabase } from '@/lib/supabase/client';

export async function refreshShopStock(productId: string): Promise<{ ok: boolean; message: string }> {
  try {
    const { data } = await (await getSupabase()).auth.getSession();
    const response = await fetch('/api/catalog-purge', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${data.session?.access_token ?? ''}` },
      body: JSON.stringify({ productId }),
    });
    const body = (await response.json().catch(() => ({}))) as { message?: unknown; error?: unknown };
    const message = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : '';
    return { ok: response.ok, message: message || (response.ok ? 'The shop pages show the new stock.' : 'The shop pages may show the old stock for up to a minute.') };
  } catch {
    return { ok: false, message: 'The shop pages may show the old stock for up to a minute.' };
  }
}
