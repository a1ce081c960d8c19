// What a service sends mail through: one message to one recipient, in plain text with an HTML twin.
// Two mailers implement it: SES (ses.ts) in production, the dev mailbox (dev-mailbox.ts) elsewhere;
// `createMailer` (index.ts) picks one from the configuration.

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** What the mail goes through, for logs and start-up messages. */
  readonly kind: 'ses' | 'dev-mailbox';
  /** Resolves once the provider accepted the message; rejects with a MailDeliveryError otherwise. */
  send(message: MailMessage): Promise<void>;
}

/** A message the provider did not accept (refused, unreachable, misconfigured); `cause` says why. */
export class MailDeliveryError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MailDeliveryError';
  }
}
