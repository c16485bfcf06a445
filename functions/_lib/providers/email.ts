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
}

export interface EmailProvider {
  name: string;
  send(message: EmailMessage): Promise<void>;
}
