// The dev mailbox: outside production, every message is kept in Redis instead of being sent, one list per
// recipient (newest first, at most DEV_MAILBOX_CAPACITY, gone DEV_MAILBOX_TTL_SECONDS after the last one),
// so every identity replica writes and the gateway reads the same box (GET /api/dev/mailbox?to=).
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import type { Mailer, MailMessage } from './mailer.js';

export const DEV_MAILBOX_CAPACITY = 50;
export const DEV_MAILBOX_TTL_SECONDS = 86_400;

export interface StoredMail extends MailMessage {
  /** ISO 8601. */
  sentAt: string;
}

/** Addresses are compared as better-auth stores them: lower-cased. */
function mailboxKey(keyPrefix: string, to: string): string {
  return `${keyPrefix}dev-mailbox:${to.trim().toLowerCase()}`;
}

export function devMailbox(redis: Redis, keyPrefix: string, logger: Logger): Mailer {
  return {
    kind: 'dev-mailbox',
    async send(message: MailMessage) {
      const key = mailboxKey(keyPrefix, message.to);
      const stored: StoredMail = { ...message, sentAt: new Date().toISOString() };
      await redis
        .multi()
        .lpush(key, JSON.stringify(stored))
        .ltrim(key, 0, DEV_MAILBOX_CAPACITY - 1)
        .expire(key, DEV_MAILBOX_TTL_SECONDS)
        .exec();
      logger.info({ mail: { to: message.to, subject: message.subject } }, 'mail kept in the dev mailbox');
    },
  };
}

/** The messages kept for `to`, newest first. */
export async function readDevMailbox(redis: Redis, keyPrefix: string, to: string): Promise<StoredMail[]> {
  const entries = await redis.lrange(mailboxKey(keyPrefix, to), 0, -1);
  return entries.map((entry) => JSON.parse(entry) as StoredMail);
}
