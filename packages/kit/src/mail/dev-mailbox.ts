// The dev mailbox: outside production, every message is kept in Redis instead of being sent, one list per
// recipient (newest first, at most DEV_MAILBOX_CAPACITY, gone DEV_MAILBOX_TTL_SECONDS after the last one),
// so every identity replica writes and the gateway reads the same box (GET /api/dev/mailbox?to=). Text
// messages (SMS) land there too, in the box of their phone number in E.164, with the subject "Text message".
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import type { SmsSender } from '../sms/sender.js';
import type { Mailer, MailMessage } from './mailer.js';

export const DEV_MAILBOX_CAPACITY = 50;
export const DEV_MAILBOX_TTL_SECONDS = 86_400;

/** The subject a text message is kept under (it has none of its own). */
export const TEXT_MESSAGE_SUBJECT = 'Text message';

export interface StoredMail extends MailMessage {
  /** ISO 8601. */
  sentAt: string;
  /** A mail, or a text message (SMS) to a phone number. */
  channel: 'mail' | 'sms';
}

/** Addresses are compared as better-auth stores them: lower-cased. */
function mailboxKey(keyPrefix: string, to: string): string {
  return `${keyPrefix}dev-mailbox:${to.trim().toLowerCase()}`;
}

async function keep(redis: Redis, keyPrefix: string, stored: StoredMail) {
  const key = mailboxKey(keyPrefix, stored.to);
  await redis
    .multi()
    .lpush(key, JSON.stringify(stored))
    .ltrim(key, 0, DEV_MAILBOX_CAPACITY - 1)
    .expire(key, DEV_MAILBOX_TTL_SECONDS)
    .exec();
}

export function devMailbox(redis: Redis, keyPrefix: string, logger: Logger): Mailer {
  return {
    kind: 'dev-mailbox',
    async send(message: MailMessage) {
      await keep(redis, keyPrefix, { ...message, sentAt: new Date().toISOString(), channel: 'mail' });
      logger.info({ mail: { to: message.to, subject: message.subject } }, 'mail kept in the dev mailbox');
    },
  };
}

/** Text messages kept beside the mail, in the box of their number; the HTML twin is the text, escaped. */
export function devSmsBox(redis: Redis, keyPrefix: string, logger: Logger): SmsSender {
  return {
    kind: 'dev-mailbox',
    async send({ to, text }) {
      const html = `<p>${text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replaceAll('\n', '<br>')}</p>`;
      const subject = TEXT_MESSAGE_SUBJECT;
      await keep(redis, keyPrefix, { to, subject, text, html, sentAt: new Date().toISOString(), channel: 'sms' });
      logger.info({ sms: { to } }, 'text message kept in the dev mailbox');
    },
  };
}

/** The messages kept for `to`, newest first. */
export async function readDevMailbox(redis: Redis, keyPrefix: string, to: string): Promise<StoredMail[]> {
  const entries = await redis.lrange(mailboxKey(keyPrefix, to), 0, -1);
  // Kept before text messages joined them, a mail has no channel.
  return entries.map((entry) => ({ channel: 'mail', ...(JSON.parse(entry) as Partial<StoredMail>) }) as StoredMail);
}
