/** Shows the account area (AccountLinks.astro) for the visitor's sign-in state and runs its Sign Out. */
import { getSupabase } from '@/lib/supabase/client';
import { redirectWithToast } from '@/features/toast/flash';
import { $auth, displayName } from './auth';

/**
 * For a signed-in visitor only, asks the database once whether they are staff and how many orders wait to be
 * packed (null for anyone who is not staff), and shows the Back office link with that count.
 */
async function showStaffLink(userId: string): Promise<void> {
  let toPack: unknown = null;
  try {
    const { data, error } = await (await getSupabase()).rpc('staff_orders_to_pack');
    if (!error) toPack = data;
  } catch {
    // No link is the safe answer when the database cannot be asked.
  }
  const auth = $auth.get();
  if (auth.status !== 'signed-in' || auth.user.id !== userId || typeof toPack !== 'number') return;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-staff-link]')) {
    const badge = link.querySelector<HTMLElement>('[data-to-pack]');
    const count = link.querySelector<HTMLElement>('[data-to-pack-count]');
    const words = link.querySelector<HTMLElement>('[data-to-pack-words]');
    if (badge && count && words) {
      count.textContent = String(toPack);
      words.textContent = toPack === 1 ? ' order to pack' : ' orders to pack';
      badge.hidden = toPack === 0;
    }
    link.hidden = false;
  }
  for (const area of document.querySelectorAll<HTMLElement>('[data-account]')) area.dataset.staff = '';
}

async function signOutFromHeader(): Promise<void> {
  try {
    const { signOut } = await import('./session');
    await signOut();
    redirectWithToast('/', { title: 'Successfully signed out' });
  } catch (error) {
    // A header sign-out failure stays out of the visitor's way (only logged).
    console.error(error);
  }
}

/**
 * The event the back office sends after anything that may change how many orders are to pack (labels printed, an
 * order shipped or cancelled): the header's count is asked for again, so it never shows a number from before.
 */
export const ORDERS_CHANGED_EVENT = 'shop:orders-changed';

export function showAccountState(): void {
  let askedFor: string | null = null;
  window.addEventListener(ORDERS_CHANGED_EVENT, () => {
    if (askedFor) void showStaffLink(askedFor);
  });
  $auth.subscribe((auth) => {
    const userId = auth.status === 'signed-in' ? auth.user.id : null;
    if (userId !== askedFor) {
      askedFor = userId;
      for (const link of document.querySelectorAll<HTMLElement>('[data-staff-link]')) link.hidden = true;
      for (const area of document.querySelectorAll<HTMLElement>('[data-account]')) delete area.dataset.staff;
      if (userId) void showStaffLink(userId);
    }
    for (const area of document.querySelectorAll<HTMLElement>('[data-account]')) {
      for (const part of area.querySelectorAll<HTMLElement>('[data-when]')) part.hidden = part.dataset.when !== auth.status;
      const name = area.querySelector<HTMLElement>('[data-account-name]');
      if (name && auth.status === 'signed-in') {
        name.textContent = displayName(auth.user.email);
        name.setAttribute('aria-label', `Profile: ${name.textContent}`);
      }
    }
  });
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-sign-out]')) button.addEventListener('click', () => void signOutFromHeader());
}
