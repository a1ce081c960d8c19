// The gateway's configuration: the only place it reads process.env.
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CAPTCHA_PROVIDERS } from '@engram/contracts/auth-features';
import { TRPC_BATCH_MAX_CALLS } from '@engram/contracts/trpc';
import { commonVars, loadConfig, publicBaseUrlOf, vars } from '@engram/kit/config';
import { z } from 'zod';

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const isProxyRange = (entry: string) => {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (rest.length > 0 || family === 0) return PROXY_NAMES.includes(entry);
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
};

export const configShape = {
  ...commonVars,
  PORT: vars.port(3000),
  METRICS_PORT: vars.port(9460),
  /** The app's own origin; required in production (publicBaseUrlOf). */
  PUBLIC_BASE_URL: vars.url(['http', 'https']).optional(),
  INTERNAL_TOKEN_PRIVATE_KEY: z.string().min(1),
  IDENTITY_HTTP_URL: vars.url(['http', 'https']),
  BILLING_HTTP_URL: vars.url(['http', 'https']),
  IDENTITY_ADDR: vars.address,
  CARDS_ADDR: vars.address,
  ORGANIZATIONS_ADDR: vars.address,
  BILLING_ADDR: vars.address,
  AI_ADDR: vars.address,
  /** The built web app; the gateway serves it with an SPA fallback. */
  WEB_DIST_DIR: z.string().default(fileURLToPath(new URL('../../web/dist', import.meta.url))),
  /** Rate-limit counters shared by every gateway replica. */
  REDIS_URL: vars.url(['redis', 'rediss']),
  /** Prepended to every Redis key, so installations (and test runs) sharing one Redis never collide. */
  REDIS_KEY_PREFIX: z.string().default('engram:'),
  /** Comma-separated addresses or CIDR ranges of proxies whose X-Forwarded-* headers are believed. */
  TRUSTED_PROXIES: vars.list
    .refine(
      (entries) => entries.every(isProxyRange),
      `must list IP addresses or CIDR ranges (or ${PROXY_NAMES.join(', ')})`,
    )
    .default([]),
  /** Comma-separated origins besides PUBLIC_BASE_URL allowed to send state-changing requests. */
  TRUSTED_ORIGINS: vars.list.default([]),
  /**
   * The origins of the object store browsers send card files and collections to (presigned PUTs), allowed
   * in the pages' connect-src: the bucket's (https://<bucket>.s3.<region>.amazonaws.com) or an S3-compatible
   * store's public endpoint; the local stand-in's under npm start.
   */
  MEDIA_UPLOAD_ORIGINS: vars.list.default([]),
  /** The address the help, terms and privacy pages give for support (docs/product.md#public-routes). */
  SUPPORT_EMAIL: z.email('must be an email address').optional(),
  /**
   * A Google Analytics 4 measurement id (G-…). Unset: no analytics at all. Set: the tag loads once a visitor
   * accepts analytics cookies, never before.
   */
  GA_MEASUREMENT_ID: z
    .string()
    .regex(/^G-[A-Z0-9]{4,20}$/, 'must be a Google Analytics 4 measurement id (G-XXXXXXXXXX)')
    .optional(),
  /**
   * Google sign-in's client id (the one identity signs in with, `GOOGLE_CLIENT_ID`). Set: the sign-in views offer
   * Google One Tap to visitors who accept its cookies, and the pages may load Google's sign-in client. Unset:
   * nothing of Google's sign-in ever loads.
   */
  GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  /** The captcha identity asks for (identity's CAPTCHA_PROVIDER): the pages may load its widget. Unset: none. */
  CAPTCHA_PROVIDER: z.enum(CAPTCHA_PROVIDERS).optional(),
  TRPC_MAX_BODY_BYTES: vars.positiveInt(1_048_576),
  /** Larger batches are refused with 400; the web app's own batches must fit (TRPC_BATCH_MAX_CALLS). */
  TRPC_MAX_BATCH_SIZE: vars
    .positiveInt(TRPC_BATCH_MAX_CALLS)
    .refine(
      (size) => size >= TRPC_BATCH_MAX_CALLS,
      `must be at least ${TRPC_BATCH_MAX_CALLS}, the most calls the web app puts in one batch`,
    ),
  /** Every limit below counts calls (each call of a batch) in one window of this many seconds. */
  TRPC_RATE_LIMIT_WINDOW_SECONDS: vars.positiveInt(60),
  TRPC_RATE_LIMIT_PER_USER: vars.positiveInt(600),
  TRPC_RATE_LIMIT_PER_ADDRESS: vars.positiveInt(1200),
  /**
   * billing.checkout, checkoutSession and portal, which reach Stripe. The checkout success page asks
   * checkoutSession once a second while the webhook is on its way: a minute of that fits.
   */
  TRPC_RATE_LIMIT_STRIPE_PER_USER: vars.positiveInt(60),
  /** ai.generate, which calls the model. */
  TRPC_RATE_LIMIT_GENERATE_PER_USER: vars.positiveInt(10),
  /** ai.upload. */
  TRPC_RATE_LIMIT_UPLOAD_PER_USER: vars.positiveInt(10),
  /**
   * settings.simulate, recommendRetention, previewReschedule and reschedule, each seconds of CPU in cards. The
   * settings screen asks for a simulation as the learner moves the retention slider (debounced): 30 a minute fits.
   */
  TRPC_RATE_LIMIT_FORECAST_PER_USER: vars.positiveInt(30),
  /**
   * Card files (GET /media/…) count apart from the calls, in windows of their own: a signed-in reader's files,
   * and an address's requests without a session the gateway knows (each of which asks identity). A browser
   * keeps every file it has read, and a device keeping cards for offline practice asks for them one by one.
   */
  MEDIA_RATE_LIMIT_WINDOW_SECONDS: vars.positiveInt(60),
  MEDIA_RATE_LIMIT_PER_USER: vars.positiveInt(1200),
  MEDIA_RATE_LIMIT_PER_ADDRESS: vars.positiveInt(1200),
  /**
   * cards.syncReviews, each up to SYNC_BATCH_MAX (500) reviews in one transaction. A device sends its queue in
   * batches and tries again later when refused: 20 a minute still take 10,000 reviews.
   */
  TRPC_RATE_LIMIT_SYNC_PER_USER: vars.positiveInt(20),
};

export type Config = ReturnType<typeof readConfig>;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('gateway', configShape, env, (config) => ({
    ...config,
    PUBLIC_BASE_URL: publicBaseUrlOf('gateway', config, env),
  }));
}
