// The identity service's parts: its database, Redis, the mailer and the text-message sender, better-auth and its HTTP server
// (/api/auth), the relay that publishes the user and membership events its triggers write, and the
// consumer that mails members a deck assigned to them. runService boots and stops them in its order
// (docs/architecture.md#boot-and-shutdown).
import { warmDatabase } from '@engram/kit/db';
import { prismaTransactions } from '@engram/kit/events/apply-once';
import { serviceNameOf } from '@engram/kit/grpc/service-name';
import { createMailer } from '@engram/kit/mail/create-mailer';
import { runService, serviceRuntime } from '@engram/kit/service';
import { createSmsSender } from '@engram/kit/sms/create-sender';
import { IdentityServiceService } from '@engram/proto/identity/v1/identity';
import { createAuth } from './auth.js';
import { readConfig } from './config.js';
import { createDb } from './db.js';
import { assignmentNotices } from './events/assignment-notices.js';
import { startAuthHttpServer } from './http/server.js';
import { createRedis, redisSecondaryStorage } from './secondary-storage.js';
import { identityService } from './server.js';

const config = readConfig();
const runtime = serviceRuntime(serviceNameOf(IdentityServiceService), config);
const { logger } = runtime;

const db = createDb(config.DATABASE_URL);
const redis = createRedis(config.REDIS_URL);
redis.on('error', (error) => logger.warn({ err: error }, 'Redis connection problem'));
const mailer = createMailer({
  ses: config.ses,
  production: config.NODE_ENV === 'production',
  redis,
  keyPrefix: config.REDIS_KEY_PREFIX,
  logger,
});
logger.info({ mail: mailer.kind }, `mail goes ${mailer.kind === 'ses' ? 'through SES' : 'to the dev mailbox'}`);
const sms = createSmsSender({
  route: config.sms,
  production: config.NODE_ENV === 'production',
  redis,
  keyPrefix: config.REDIS_KEY_PREFIX,
  logger,
});
logger.info(
  { sms: sms?.kind ?? 'none' },
  sms
    ? `text messages go ${sms.kind === 'sns' ? 'through SNS' : 'to the dev mailbox'}`
    : 'phone numbers are off: no SNS_REGION, so no text message can be sent',
);
const auth = createAuth(db, {
  secret: config.BETTER_AUTH_SECRET,
  publicBaseUrl: config.PUBLIC_BASE_URL,
  extraTrustedOrigins: config.AUTH_TRUSTED_ORIGINS ?? [],
  checkPwnedPasswords: config.AUTH_CHECK_PWNED_PASSWORDS,
  secondaryStorage: redisSecondaryStorage(redis, config.REDIS_KEY_PREFIX),
  rateLimit: {
    windowSeconds: config.AUTH_RATE_LIMIT_WINDOW_SECONDS,
    max: config.AUTH_RATE_LIMIT_MAX,
    signInMax: config.AUTH_RATE_LIMIT_SIGN_IN_MAX,
  },
  passwordGuessing: {
    redis,
    keyPrefix: config.REDIS_KEY_PREFIX,
    threshold: config.AUTH_PASSWORD_GUESS_THRESHOLD,
    windowSeconds: config.AUTH_PASSWORD_GUESS_WINDOW_SECONDS,
    delaySeconds: config.AUTH_PASSWORD_GUESS_DELAY_SECONDS,
    maxDelaySeconds: config.AUTH_PASSWORD_GUESS_MAX_DELAY_SECONDS,
  },
  mailer,
  sms,
  adminEmails: config.ADMIN_EMAILS,
  logger,
  signInMethods: config.signInMethods,
  gravatar: {
    baseUrl: config.GRAVATAR_URL === 'off' ? null : config.GRAVATAR_URL.replace(/\/+$/, ''),
    timeoutMs: config.GRAVATAR_TIMEOUT_MS,
  },
});
const http = await startAuthHttpServer(auth, config.HTTP_PORT, logger);

await runService(runtime, {
  warmUp: () => warmDatabase(db),
  services: [identityService(auth, db, runtime.serverOptions)],
  events: {
    relay: true,
    transactions: prismaTransactions(db),
    consumers: [
      assignmentNotices({
        mailer,
        redis,
        keyPrefix: config.REDIS_KEY_PREFIX,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        logger,
      }),
    ],
  },
  close: [
    { name: 'auth http', run: () => http.close() },
    { name: 'mailer', run: () => mailer.close() },
    { name: 'sms', run: () => sms?.close() },
    { name: 'database', run: () => db.$disconnect() },
    { name: 'redis', run: () => redis.quit() },
  ],
});
