/**
 * LOCAL STAND-IN for the email provider (Resend in hosted mode), used when RESEND_API_KEY or EMAIL_FROM
 * is unset. Nothing is sent: each message is appended as one JSON line to an outbox file
 * (LOCAL_OUTBOX_FILE, default local/.data/outbox.jsonl) and one line is logged, so a developer or a test
 * can read exactly what would have gone out.
 */
import { resolve } from 'node:path';
import type { EmailMessage, EmailProvider } from './email';
import { appendJsonLines, readJsonLines } from './json-lines';

const DEFAULT_OUTBOX_FILE = 'local/.data/outbox.jsonl';

/** One line of the outbox. */
export interface OutboxEntry extends EmailMessage {
  provider: 'local-outbox';
  /** ISO time the message was "sent". */
  sentAt: string;
  /** The idempotency key of the batch it went out in, when it was one of a batch. */
  batchKey?: string;
}

function outboxFileFromEnv(env: Record<string, string | undefined> = process.env): string {
  return resolve(env.LOCAL_OUTBOX_FILE?.trim() || DEFAULT_OUTBOX_FILE);
}

export function createLocalOutboxEmail(options: { file?: string; log?: (line: string) => void } = {}): EmailProvider {
  const log = options.log ?? ((line: string) => console.log(line));
  const outbox = () => (options.file ? resolve(options.file) : outboxFileFromEnv());
  return {
    name: 'local-outbox',
    async send(message) {
      const file = outbox();
      const entry: OutboxEntry = { provider: 'local-outbox', sentAt: new Date().toISOString(), ...message };
      await appendJsonLines(file, [entry]);
      log(`[email outbox] to ${message.to} subject ${JSON.stringify(message.subject)} (local stand-in, not sent; see ${file})`);
    },
    async sendBatch(messages, { idempotencyKey }) {
      const file = outbox();
      // As Resend does: a batch already sent under this key is not sent again.
      if ((await readOutbox(file)).some((entry) => entry.batchKey === idempotencyKey)) {
        log(`[email outbox] batch ${idempotencyKey} was already sent; not sent again (local stand-in)`);
        return;
      }
      const sentAt = new Date().toISOString();
      // The whole batch in one write, so it is in the outbox all or not at all.
      await appendJsonLines(
        file,
        messages.map((message) => ({ provider: 'local-outbox', sentAt, ...message, batchKey: idempotencyKey }) satisfies OutboxEntry),
      );
      log(`[email outbox] batch ${idempotencyKey}: ${messages.length} emails (local stand-in, not sent; see ${file})`);
    },
  };
}

/** Every message in an outbox file, oldest first; [] when the file does not exist yet. */
export function readOutbox(file: string = outboxFileFromEnv()): Promise<OutboxEntry[]> {
  return readJsonLines<OutboxEntry>(file);
}
