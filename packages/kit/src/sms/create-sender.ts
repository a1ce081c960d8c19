// Picks the sender a service's text messages go through: SNS when configured, else the dev mailbox outside
// production, else none (phone numbers are then off; sms/config.ts decided which).
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { devSmsBox } from '../mail/dev-mailbox.js';
import type { SmsRoute } from './config.js';
import type { SmsSender } from './sender.js';
import { snsSender } from './sns.js';

export type { SmsMessage, SmsSender } from './sender.js';
export { SmsDeliveryError } from './sender.js';

export function createSmsSender(options: {
  route: SmsRoute;
  production: boolean;
  /** Where the dev mailbox keeps messages (the service's Redis and REDIS_KEY_PREFIX). */
  redis: Redis;
  keyPrefix: string;
  logger: Logger;
}): (SmsSender & { close(): void }) | null {
  const { route } = options;
  if (route.kind === 'sns') return snsSender(route.sns, options.logger);
  if (route.kind === 'none') return null;
  if (options.production) throw new Error('the dev mailbox never runs in production: configure SNS');
  return { ...devSmsBox(options.redis, options.keyPrefix, options.logger), close: () => undefined };
}
