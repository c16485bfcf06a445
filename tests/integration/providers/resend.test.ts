/**
 * The Resend adapter against a local server answering like api.resend.com/emails:
 * { id } on success, { statusCode, name, message } on every documented error.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createResendEmail } from '../../../functions/_lib/providers/resend';
import { ProviderError } from '../../../functions/_lib/providers/errors';
import { answerInTurn, sendJson, useFakeProvider, type Handler } from '../../helpers/fake-provider';

const API_KEY = 're_test_key';
const FROM = 'Shop <orders@example.com.au>';

const fake = useFakeProvider();

function resendError(response: ServerResponse, statusCode: number, name: string, message: string): void {
  sendJson(response, statusCode, { statusCode, name, message });
}

async function fakeResend(handler: Handler): Promise<string> {
  const { url } = await fake.start((seen, response) => {
    const auth = seen.headers.authorization?.trim();
    if (!auth || auth === 'Bearer') return resendError(response, 401, 'missing_api_key', 'Missing API key in the authorization header.');
    if (auth !== `Bearer ${API_KEY}`) return resendError(response, 403, 'invalid_api_key', 'API key is invalid');
    handler(seen, response);
  });
  return url;
}

const MESSAGE = { to: 'buyer@example.com', subject: 'Your order', text: 'Thank you for your order.', html: '<p>Thank you for your order.</p>' };

describe('Resend emails', () => {
  it('posts the email with the bearer key, a user agent and the idempotency key, and accepts { id }', async () => {
    const baseUrl = await fakeResend((_seen, res) => sendJson(res, 200, { id: '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794' }));
    await createResendEmail({ apiKey: API_KEY, from: FROM, baseUrl }).send({ ...MESSAGE, idempotencyKey: 'order-confirmation/1234' });

    const request = fake.seen[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/emails');
    expect(request.headers['idempotency-key']).toBe('order-confirmation/1234');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBeTruthy();
    expect(JSON.parse(request.body)).toEqual({ from: FROM, to: ['buyer@example.com'], subject: 'Your order', text: 'Thank you for your order.', html: '<p>Thank you for your order.</p>' });
  });

  it('sends text-only mail without html and without an idempotency header when none is given', async () => {
    const baseUrl = await fakeResend((_seen, res) => sendJson(res, 200, { id: 'abc' }));
    await createResendEmail({ apiKey: API_KEY, from: FROM, baseUrl }).send({ to: 'a@example.com', subject: 'Hi', text: 'Hello' });
    expect(JSON.parse(fake.seen[0]!.body)).not.toHaveProperty('html');
    expect(JSON.parse(fake.seen[0]!.body)).not.toHaveProperty('reply_to');
  });

  it('sends reply_to when the message names who a reply should go to', async () => {
    const baseUrl = await fakeResend((_seen, res) => sendJson(res, 200, { id: 'email-2' }));
    await createResendEmail({ apiKey: API_KEY, from: FROM, baseUrl }).send({ to: 'publisher@example.com', subject: 'Contact form: Hi', text: 'Hello', replyTo: 'parent@example.com' });
    expect(JSON.parse(fake.seen[0]!.body)).toMatchObject({ to: ['publisher@example.com'], reply_to: ['parent@example.com'] });
    expect(fake.seen[0]!.headers).not.toHaveProperty('idempotency-key');
  });

  it('401 missing_api_key and 403 invalid_api_key become ProviderErrors naming the error', async () => {
    const baseUrl = await fakeResend(() => undefined);
    const missing = await createResendEmail({ apiKey: '', from: FROM, baseUrl })
      .send(MESSAGE)
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ProviderError);
    expect(missing).toMatchObject({ provider: 'resend', status: 401, message: expect.stringContaining('missing_api_key') });
    await expect(createResendEmail({ apiKey: 're_wrong', from: FROM, baseUrl }).send(MESSAGE)).rejects.toMatchObject({ status: 403, message: expect.stringContaining('invalid_api_key') });
  });

  it('documented 4xx answers (validation, unverified domain, idempotency conflict, rate limit) are ProviderErrors', async () => {
    const answers: Array<[number, string, string]> = [
      [422, 'validation_error', 'Invalid `to` field. The email address needs to follow the `email@example.com` format.'],
      [403, 'validation_error', 'The example.com.au domain is not verified. Please, add and verify your domain.'],
      [409, 'invalid_idempotent_request', 'Same idempotency key used with a different request payload.'],
      [429, 'rate_limit_exceeded', 'Too many requests. You can only make 2 requests per second.'],
    ];
    const baseUrl = await fakeResend(answerInTurn(answers, resendError));
    const email = createResendEmail({ apiKey: API_KEY, from: FROM, baseUrl });
    for (const [status, name] of answers) {
      await expect(email.send({ ...MESSAGE, idempotencyKey: 'k' })).rejects.toMatchObject({ status, code: 'rejected', message: expect.stringContaining(name) });
    }
  });

  it('500 application_error and a non-JSON 502 from a proxy are ProviderErrors', async () => {
    let proxy = false;
    const baseUrl = await fakeResend((_seen, res) =>
      proxy ? res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>') : resendError(res, 500, 'application_error', 'An unexpected error occurred.'),
    );
    const email = createResendEmail({ apiKey: API_KEY, from: FROM, baseUrl });
    await expect(email.send(MESSAGE)).rejects.toMatchObject({ status: 500, message: expect.stringContaining('application_error') });
    proxy = true;
    await expect(email.send(MESSAGE)).rejects.toMatchObject({ status: 502, message: expect.stringContaining('HTTP 502') });
  });

  it('a 200 without an id is a ProviderError (the caller may retry safely with the same idempotency key)', async () => {
    const baseUrl = await fakeResend((_seen, res) => sendJson(res, 200, { ok: true }));
    await expect(createResendEmail({ apiKey: API_KEY, from: FROM, baseUrl }).send(MESSAGE)).rejects.toMatchObject({ code: 'invalid-response' });
  });

  it('refuses an idempotency key longer than 256 characters before calling Resend', async () => {
    const baseUrl = await fakeResend((_seen, res) => sendJson(res, 200, { id: 'x' }));
    await expect(createResendEmail({ apiKey: API_KEY, from: FROM, baseUrl }).send({ ...MESSAGE, idempotencyKey: 'k'.repeat(257) })).rejects.toMatchObject({ code: 'unsupported' });
    expect(fake.seen).toHaveLength(0);
  });

  it('a Resend that does not answer in time is a timeout ProviderError', async () => {
    const baseUrl = await fakeResend(() => undefined /* never answers */);
    await expect(createResendEmail({ apiKey: API_KEY, from: FROM, baseUrl, timeoutMs: 150 }).send(MESSAGE)).rejects.toMatchObject({ code: 'timeout', status: 504 });
  });

  it('sends a batch in one POST to /emails/batch, headers included, under the batch’s idempotency key', async () => {
    const baseUrl = await fakeResend((_seen, res) => sendJson(res, 200, { data: [{ id: 'e1' }, { id: 'e2' }] }));
    const headers = { 'List-Unsubscribe': '<https://shop.example/api/newsletter-unsubscribe?token=t>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
    await createResendEmail({ apiKey: API_KEY, from: FROM, baseUrl }).sendBatch(
      [
        { to: 'a@example.com', subject: 'News', text: 'Hi', html: '<p>Hi</p>', headers },
        { to: 'b@example.com', subject: 'News', text: 'Hi', html: '<p>Hi</p>', headers },
      ],
      { idempotencyKey: 'newsletter-1-batch-1' },
    );
    const request = fake.seen[0]!;
    expect(request.path).toBe('/emails/batch');
    expect(request.headers['idempotency-key']).toBe('newsletter-1-batch-1');
    expect(JSON.parse(request.body)).toEqual([
      { from: FROM, to: ['a@example.com'], subject: 'News', text: 'Hi', html: '<p>Hi</p>', headers },
      { from: FROM, to: ['b@example.com'], subject: 'News', text: 'Hi', html: '<p>Hi</p>', headers },
    ]);
  });

  it('a batch refused (422) or answered without an id per email is a ProviderError; more than 100 is refused before sending', async () => {
    const refusing = await fakeResend((_seen, res) => resendError(res, 422, 'validation_error', 'The `to` field must be an email.'));
    await expect(createResendEmail({ apiKey: API_KEY, from: FROM, baseUrl: refusing }).sendBatch([MESSAGE], { idempotencyKey: 'k' })).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('validation_error'),
    });
    const short = await fakeResend((_seen, res) => sendJson(res, 200, { data: [] }));
    await expect(createResendEmail({ apiKey: API_KEY, from: FROM, baseUrl: short }).sendBatch([MESSAGE], { idempotencyKey: 'k' })).rejects.toMatchObject({ code: 'invalid-response' });
    const seen = fake.seen.length;
    await expect(
      createResendEmail({ apiKey: API_KEY, from: FROM, baseUrl: short }).sendBatch(
        Array.from({ length: 101 }, () => MESSAGE),
        { idempotencyKey: 'k' },
      ),
    ).rejects.toMatchObject({ status: 400 });
    expect(fake.seen).toHaveLength(seen);
  });
});
