/** Sending email. The real adapter is Resend; locally, the outbox file (local-email.ts). */

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where the publisher's Reply goes (the visitor who wrote), when that is not the sender. */
  replyTo?: string;
  /** Lets a retried send be recognised as the same email. */
  idempotencyKey?: string;
  /** Extra message headers (the newsletter's List-Unsubscribe and List-Unsubscribe-Post). */
  headers?: Record<string, string>;
}

/** The most emails one batch call may carry (Resend's limit). */
export const EMAIL_BATCH_MAX = 100;

export interface EmailProvider {
  name: string;
  send(message: EmailMessage): Promise<void>;
  /**
   * Sends up to EMAIL_BATCH_MAX emails in one call, all or none. The same `idempotencyKey` with the same
   * messages sends nothing again (a retry of a batch whose answer was lost).
   */
  sendBatch(messages: EmailMessage[], options: { idempotencyKey: string }): Promise<void>;
}
