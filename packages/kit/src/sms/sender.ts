// What a service sends text messages (SMS) through: one short text to one phone number in E.164. Two senders
// implement it: Amazon SNS (sns.ts) where it is configured, the dev mailbox (dev-mailbox.ts in mail/) elsewhere
// outside production; `createSmsSender` (create-sender.ts) picks one from the configuration.

export interface SmsMessage {
  /** The number in E.164, e.g. +5511912345678. */
  to: string;
  text: string;
}

export interface SmsSender {
  /** What the message goes through, for logs and start-up messages. */
  readonly kind: 'sns' | 'dev-mailbox';
  /** Resolves once the provider accepted the message; rejects with an SmsDeliveryError otherwise. */
  send(message: SmsMessage): Promise<void>;
}

/** A message the provider did not accept (refused, unreachable, misconfigured); `cause` says why. */
export class SmsDeliveryError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SmsDeliveryError';
  }
}
