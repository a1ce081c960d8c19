// Picks the mailer a service sends through: SES when configured, else the dev mailbox (mail/config.ts
// already refused production without SES; checked again here so no other caller can get it wrong).
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { devMailbox } from './dev-mailbox.js';
import type { Mailer } from './mailer.js';
import { type SesSettings, sesMailer } from './ses.js';

export type { Mailer, MailMessage } from './mailer.js';
export { MailDeliveryError } from './mailer.js';

export function createMailer(options: {
  ses: SesSettings | null;
  production: boolean;
  /** Where the dev mailbox keeps messages (the service's Redis and REDIS_KEY_PREFIX). */
  redis: Redis;
  keyPrefix: string;
  logger: Logger;
}): Mailer & { close(): void } {
  if (options.ses) return sesMailer(options.ses, options.logger);
  if (options.production) throw new Error('the dev mailbox never runs in production: configure SES');
  return { ...devMailbox(options.redis, options.keyPrefix, options.logger), close: () => undefined };
}
