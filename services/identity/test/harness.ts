// The identity service in-process on a fresh schema of the run's database: better-auth's HTTP server
// (what browsers reach through the gateway) and the gRPC server (what the gateway calls), with a key
// pair of its own so tests sign internal tokens exactly as the gateway does. Mail goes to a dev mailbox
// of the harness's own (or through SES, to a test's fake), and the relay publishes the user events.
import { randomBytes } from 'node:crypto';
import { unary } from '@engram/kit/grpc/client';
import { createMailer } from '@engram/kit/mail/create-mailer';
import { readDevMailbox } from '@engram/kit/mail/dev-mailbox';
import type { SesSettings } from '@engram/kit/mail/ses';
import { createSmsSender } from '@engram/kit/sms/create-sender';
import type { SnsSettings } from '@engram/kit/sms/sns';
import { IdentityServiceClient } from '@engram/proto/identity/v1/identity';
import { testContext } from '@engram/testkit/context';
import { cookieFrom, linkIn, smsCodeIn } from '@engram/testkit/mailbox';
import { startServiceUnderTest } from '@engram/testkit/service';
import { waitUntil } from '@engram/testkit/wait';
import type { GravatarSettings } from '../src/auth/gravatar.js';
import type { PasswordGuessLimits } from '../src/auth/password-guessing.js';
import type { SignInMethods } from '../src/auth/sign-in-methods-config.js';
import { createAuth } from '../src/auth.js';
import { createDb } from '../src/db.js';
import { startAuthHttpServer } from '../src/http/server.js';
import { createRedis, redisSecondaryStorage } from '../src/secondary-storage.js';
import { identityService } from '../src/server.js';

export { cookieFrom } from '@engram/testkit/mailbox';

/** The public origin the auth is configured with; browsers send it as Origin. */
export const PUBLIC_BASE_URL = 'http://localhost:3000';
export const PASSWORD = 'correct horse battery';

export interface SignUp {
  email: string;
  password: string;
  name: string;
  username?: string;
}

/** Limits far above what a test sends, unless the test is about them. */
const ROOMY_RATE_LIMIT = { windowSeconds: 10, max: 10_000, signInMax: 10_000 };
const ROOMY_PASSWORD_GUESSING = { threshold: 10_000, windowSeconds: 60, delaySeconds: 1, maxDelaySeconds: 1 };

export interface IdentityHarnessOptions {
  /** Defaults to the run's Redis; sessions, rate-limit counters and the dev mailbox go there. */
  redisUrl?: string;
  rateLimit?: { windowSeconds: number; max: number; signInMax: number };
  /** Wrong passwords per account before its sign-ins wait, and the waits. */
  passwordGuessing?: PasswordGuessLimits;
  /** Shared by harnesses that stand for replicas of one installation; otherwise one of its own. */
  redisKeyPrefix?: string;
  adminEmails?: string[];
  /** Send through SES (a test's fake) instead of keeping mail in the dev mailbox. */
  ses?: SesSettings;
  /** Text through SNS (a test's fake), or not at all (phone numbers off), instead of the dev mailbox. */
  sns?: SnsSettings | 'none';
  /** Run the relay that publishes the outbox (the events are then read from NATS). */
  relay?: boolean;
  /** How often the relay looks at the outbox unwoken (testkit's default: 200 ms). */
  relayPollMs?: number;
  /** Social and generic OAuth providers and captcha (none unless a test is about them). */
  signInMethods?: SignInMethods;
  /** Where Gravatar answers (a test's fake); none unless a test is about it. */
  gravatar?: GravatarSettings;
}

export async function startIdentityHarness(options: IdentityHarnessOptions = {}) {
  const redisKeyPrefix = options.redisKeyPrefix ?? `${testContext().subjectPrefix}${randomBytes(3).toString('hex')}:`;
  const service = await startServiceUnderTest({
    service: 'identity',
    migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname,
    async start({ databaseUrl, serverOptions, logger }) {
      const db = createDb(databaseUrl);
      const redis = createRedis(options.redisUrl ?? testContext().redisUrl);
      redis.on('error', () => {}); // a test may stop its private Redis on purpose
      const mailer = createMailer({
        ses: options.ses ?? null,
        production: false,
        redis,
        keyPrefix: redisKeyPrefix,
        logger,
      });
      const sms = createSmsSender({
        route:
          options.sns === 'none'
            ? { kind: 'none' }
            : options.sns
              ? { kind: 'sns', sns: options.sns }
              : { kind: 'dev-mailbox' },
        production: false,
        redis,
        keyPrefix: redisKeyPrefix,
        logger,
      });
      const auth = createAuth(db, {
        secret: randomBytes(32).toString('base64url'),
        publicBaseUrl: PUBLIC_BASE_URL,
        checkPwnedPasswords: false,
        secondaryStorage: redisSecondaryStorage(redis, redisKeyPrefix),
        rateLimit: options.rateLimit ?? ROOMY_RATE_LIMIT,
        passwordGuessing: {
          redis,
          keyPrefix: redisKeyPrefix,
          ...(options.passwordGuessing ?? ROOMY_PASSWORD_GUESSING),
        },
        mailer,
        sms,
        adminEmails: options.adminEmails ?? [],
        logger,
        ...(options.signInMethods && { signInMethods: options.signInMethods }),
        ...(options.gravatar && { gravatar: options.gravatar }),
      });
      const http = await startAuthHttpServer(auth, 0, logger);
      return {
        services: [identityService(auth, db, serverOptions)],
        resources: { db, http, redis, auth },
        ...(options.relay && {
          events: {
            relay: true,
            ...(options.relayPollMs && { relayOptions: { pollIntervalMs: options.relayPollMs } }),
          },
        }),
        async close() {
          await http.close();
          mailer.close();
          sms?.close();
          await db.$disconnect();
          redis.disconnect();
        },
      };
    },
  });
  const { db, http, redis, auth } = service.resources;
  const signer = service.signer;
  const client = service.client(IdentityServiceClient);
  const httpUrl = `http://127.0.0.1:${http.port}`;

  /** A request to the auth HTTP server, as a browser on `origin` would send it through the gateway. */
  const post = (
    path: string,
    init: { body?: unknown; cookie?: string; origin?: string; headers?: Record<string, string> } = {},
  ) =>
    fetch(`${httpUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: init.origin ?? PUBLIC_BASE_URL,
        ...(init.cookie ? { cookie: init.cookie } : {}),
        ...init.headers,
      },
      body: JSON.stringify(init.body ?? {}),
    });

  /** A GET as the browser sends it (no Origin), with the session cookie when given. */
  const get = (path: string, cookie?: string) =>
    fetch(`${httpUrl}${path}`, { ...(cookie ? { headers: { cookie } } : {}) });

  /**
   * Makes the session with this cookie `seconds` older, as time would: its row in PostgreSQL is aged and
   * its copy in Redis dropped, so better-auth reads the aged row (sessions live in both).
   */
  async function ageSession(cookie: string, seconds: number) {
    const token = decodeURIComponent(/better-auth\.session_token=([^;]+)/.exec(cookie)?.[1] ?? '').split('.')[0] ?? '';
    const aged = await db.$executeRaw`
      UPDATE sessions SET created_at = created_at - make_interval(secs => ${seconds}) WHERE token = ${token}`;
    if (aged !== 1) throw new Error('no session to age');
    await redis.del(`${redisKeyPrefix}identity:${token}`);
  }

  /** The dev mailbox of this harness: messages to `to`, newest first. */
  const mailbox = (to: string) => readDevMailbox(redis, redisKeyPrefix, to);

  /** Waits for the newest mail to `to` whose subject matches. */
  async function nextMail(to: string, subject: RegExp) {
    let found: Awaited<ReturnType<typeof mailbox>>[number] | undefined;
    await waitUntil(`a mail to ${to} about ${subject}`, async () => {
      found = (await mailbox(to)).find((mail) => subject.test(mail.subject));
      return found !== undefined;
    });
    return found as NonNullable<typeof found>;
  }

  /** Opens a link from a mail (its origin is the public one) on this server, without following redirects. */
  const open = (link: string, cookie?: string) => {
    const url = new URL(link);
    return fetch(`${httpUrl}${url.pathname}${url.search}`, {
      redirect: 'manual',
      ...(cookie ? { headers: { cookie } } : {}),
    });
  };

  /** Signs up and follows the verification link, as a new user does; returns the session cookie. */
  async function signUpVerified(body: SignUp): Promise<string> {
    const response = await post('/api/auth/sign-up/email', { body });
    if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
    const verified = await open(linkIn(await nextMail(body.email, /^Verify your email/)));
    if (verified.status !== 302) throw new Error(`verification failed: ${verified.status} ${await verified.text()}`);
    return cookieFrom(verified);
  }

  /** The code of the newest text message to `number` (E.164) arrived after the `seen` ones. */
  async function nextCode(number: string, seen = 0) {
    let code: string | undefined;
    await waitUntil(`a text message to ${number}`, async () => {
      const texts = (await mailbox(number)).slice(0, -seen || undefined).filter((mail) => mail.channel === 'sms');
      code = texts[0] && smsCodeIn(texts[0]);
      return code !== undefined;
    });
    return code as string;
  }

  /**
   * Adds `typed` (as the learner typed it) to the account of `cookie` as a learner does: a code by SMS to the
   * number (E.164, `number`), then that code; answers the verify response.
   */
  async function addPhoneNumber(cookie: string, number: string, typed = number) {
    const seen = (await mailbox(number)).length;
    const sent = await post('/api/auth/phone-number/send-otp', { body: { phoneNumber: typed }, cookie });
    if (sent.status !== 200) throw new Error(`send-otp failed: ${sent.status} ${await sent.text()}`);
    const code = await nextCode(number, seen);
    return post('/api/auth/phone-number/verify', {
      body: { phoneNumber: typed, code, updatePhoneNumber: true },
      cookie,
    });
  }

  /** A new user who signed up and verified their address: email, name, id and session cookie. */
  async function signedUpUser(label: string, name = label) {
    const email = uniqueEmail(label);
    const cookie = await signUpVerified({ email, password: PASSWORD, name });
    const { id } = await db.user.findUniqueOrThrow({ where: { email } });
    return { email, name, id, cookie };
  }

  return {
    db,
    redis,
    /** better-auth itself, for what only the server may do (an API key's server-only properties). */
    auth,
    redisKeyPrefix,
    signer,
    httpUrl,
    client,
    events: service.events,
    post,
    get,
    ageSession,
    open,
    mailbox,
    nextMail,
    nextCode,
    addPhoneNumber,
    signUp: (body: SignUp) => post('/api/auth/sign-up/email', { body }),
    signUpVerified,
    signedUpUser,
    /** GetSession as the gateway calls it: with a system token of its own. */
    getSession: async (request: { cookie?: string; authorization?: string }) =>
      unary(
        client,
        client.getSession,
        { cookie: request.cookie ?? '', authorization: request.authorization ?? '' },
        { token: await signer.signSystem('gateway', 'identity') },
      ),
    stop: service.stop,
  };
}

export function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.com`;
}

/** A Brazilian mobile number no other test uses, in E.164 (+55 11 9xxxx-xxxx). */
export function uniquePhoneNumber(): string {
  return `+55119${6 + ((randomBytes(1)[0] ?? 0) % 4)}${String(randomBytes(4).readUInt32BE() % 10_000_000).padStart(7, '0')}`;
}

export type IdentityHarness = Awaited<ReturnType<typeof startIdentityHarness>>;
