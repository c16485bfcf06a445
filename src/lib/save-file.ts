/**
 * Hands the browser a file the page made (a CSV, a PDF of labels) to save under `name`. The link goes into the
 * document for the click, as Firefox needs, and its address is kept a minute: revoked at once, a large file's
 * download can be cut off.
 */
export function saveFile(parts: BlobPart[], name: string, type: string): void {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
