/** Opens and closes the mobile menu (MobileMenu.astro), a native modal <dialog>. */
export function startMobileMenu(): void {
  const menu = document.querySelector<HTMLDialogElement>('[data-mobile-menu]');
  const toggle = document.querySelector<HTMLButtonElement>('[data-menu-open]');
  if (menu && toggle) {
    const close = () => menu.close();
    toggle.addEventListener('click', () => {
      menu.showModal();
      toggle.setAttribute('aria-expanded', 'true');
    });
    menu.addEventListener('close', () => {
      toggle.setAttribute('aria-expanded', 'false');
      toggle.focus();
    });
    menu.querySelector('[data-menu-close]')?.addEventListener('click', close);
    // A chosen link (or action) closes the menu, as the page changes under it.
    menu.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a, [data-closes-menu]')) close();
    });
    // Growing past the breakpoint leaves no full-screen menu behind.
    matchMedia('(min-width: 768px)').addEventListener('change', (e) => e.matches && close());
  }
}
