/**
 * The local server answers only requests addressed to this machine on its own port. Any other Host means
 * a web page in the developer's browser has pointed a name of its own at 127.0.0.1 (DNS rebinding) to reach
 * the shop, its functions and the embedded backend, whose service-role key is well known.
 */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export function isLocalHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const name = host.toLowerCase();
  return LOOPBACK_NAMES.some((loopback) => name === `${loopback}:${port}` || (port === 80 && name === loopback));
}

export const FOREIGN_HOST_MESSAGE = 'This local server only answers requests for localhost, 127.0.0.1 or [::1] on its own port.';
