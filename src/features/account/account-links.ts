/** Shows the account area (AccountLinks.astro) for the visitor's sign-in state and runs its Sign Out. */
import { $auth, displayName } from './auth';

async function signOutFromHeader(): Promise<void> {
  try {
    const [{ signOut }, { redirectWithToast }] = await Promise.all([import('./session'), import('@/features/toast/flash')]);
    await signOut();
    redirectWithToast('/', { title: 'Successfully signed out' });
  } catch (error) {
    // A header sign-out failure stays out of the visitor's way (only logged).
    console.error(error);
  }
}

export function showAccountState(): void {
  $auth.subscribe((auth) => {
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
