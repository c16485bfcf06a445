/**
 * Swaps a pre-rendered book or product view for its not-found view (NotFoundView.astro), once the live read
 * says the product cannot be sold: the copy from the build must not stay up with working buttons.
 */
export function showNotFound(viewId: string): void {
  const view = document.getElementById(viewId);
  const notFound = document.getElementById(`${viewId}-not-found`);
  if (!view || !notFound) return;
  view.hidden = true;
  notFound.hidden = false;
}
