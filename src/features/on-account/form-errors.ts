/** The message of react-hook-form's error at a dotted path ("address.line1", "lines.0.quantity"), if there is one. */
export function errorAt(errors: object, path: string): string | undefined {
  const found = path.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), errors);
  const message = found && typeof found === 'object' ? (found as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : undefined;
}
