/**
 * A stand-in for a third-party HTTP API in provider adapter tests (tools/fake-provider.ts), with a test file's
 * lifecycle. What the provider itself checks first (its API key, its error bodies) stays in each test file, wrapped
 * around the handler. A test file usually calls useFakeProvider() once; startFakeProvider() is the same server
 * without the lifecycle.
 */
import type { ServerResponse } from 'node:http';
import { afterEach } from 'vitest';
import { type FakeProvider, type FakeProviderOptions, type Handler, type Seen, startFakeProvider } from '../../tools/fake-provider';

export { type FakeProvider, type Handler, type Seen, sendJson, startFakeProvider } from '../../tools/fake-provider';

/**
 * One fake provider per test for a test file: `start` begins a new one, and it is closed after each test.
 * `seen` and `close` refer to the one the current test started.
 */
export function useFakeProvider<Body = string>(options: FakeProviderOptions<Body> = {}) {
  let current: FakeProvider<Body> | undefined;
  const started = (): FakeProvider<Body> => {
    if (!current) throw new Error('No fake provider was started in this test');
    return current;
  };
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    start: async (handler: Handler<Body>): Promise<FakeProvider<Body>> => (current = await startFakeProvider(handler, options)),
    get seen(): Array<Seen<Body>> {
      return started().seen;
    },
    close: (): Promise<void> => started().close(),
  };
}

/** A handler that answers each request with the next of `answers`, in order (`send(response, ...answer)`): one per call the test makes. */
export function answerInTurn<Answer extends unknown[]>(answers: readonly Answer[], send: (response: ServerResponse, ...answer: Answer) => void): Handler {
  let next = 0;
  return (_seen, response) => send(response, ...answers[next++]!);
}
