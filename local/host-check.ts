/**
 * What the local server refuses before anything else sees a request.
 *
 * The Host: it answers only requests addressed to this machine on its own port. Any other Host means a web page
 * in the developer's browser has pointed a name of its own at 127.0.0.1 (DNS rebinding) to reach the shop, its
 * functions and the embedded backend, whose service-role key is well known.
 *
 * The request target: only a path (origin-form, `/api/health`), as Netlify's edge accepts. An absolute-form
 * target (`http://other.example/api/health`) or one starting `//` would otherwise resolve to another origin
 * in the URL a function reads.
 */
import type { ServerResponse } from 'node:http';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export function isLocalHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const name = host.toLowerCase();
  return LOOPBACK_NAMES.some((loopback) => name === `${loopback}:${port}` || (port === 80 && name === loopback));
}

export const FOREIGN_HOST_MESSAGE = 'This local server only answers requests for localhost, 127.0.0.1 or [::1] on its own port.';

/** Whether a request target is a path of this server: exactly one `/` first (the URL parser reads `\` as `/`). */
export function isOriginForm(target: string | undefined): target is string {
  return !!target && /^\/(?![/\\])/.test(target);
}

/** The request's URL on this server's own origin (`http://<Host>`), or undefined when the target is not a path of it. */
export function localRequestUrl(target: string | undefined, origin: string): URL | undefined {
  if (!isOriginForm(target)) return undefined;
  try {
    const own = new URL(origin).origin;
    const url = new URL(target, own);
    return url.origin === own ? url : undefined;
  } catch {
    return undefined;
  }
}

export const REQUEST_TARGET_MESSAGE = 'Bad request: the request target must be a path on this server, starting with a single /.';

/** 400 to a request target that is not a path of this server (absolute-form, `//host`, `*`). */
export function refuseRequestTarget(res: ServerResponse): void {
  res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(REQUEST_TARGET_MESSAGE);
}
