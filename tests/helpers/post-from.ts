/**
 * A POST to a local shop from one of this machine's loopback addresses (any of 127.0.0.0/8, on Linux): the local
 * server rate-limits each function per client address, so a test with several visitors gives each its own.
 */
import { request as httpRequest } from 'node:http';

/** An address of this machine that a visitor's requests come from. */
export type VisitorAddress = `127.${number}.${number}.${number}`;

export interface PostAnswer {
  status: number;
  contentType: string;
  body: string;
}

export function postFrom(origin: string, visitor: VisitorAddress, path: string, body: string): Promise<PostAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: hostname, port, path, method: 'POST', localAddress: visitor, headers: { 'content-type': 'application/json', host: `localhost:${port}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'] ?? 'application/json', body: Buffer.concat(chunks).toString('utf8') }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}
