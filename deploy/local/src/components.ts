// The processes of Engram and how each is configured locally, with the ports of
// docs/architecture.md#conventions. One table, so `npm start` and the end-to-end tests start the same system.
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export type ComponentName = 'identity' | 'organizations' | 'cards' | 'billing' | 'ai' | 'gateway';

export interface Ports {
  gateway: number;
  gatewayMetrics: number;
  identityHttp: number;
  billingHttp: number;
  /** The S3 stand-in cards starts for card files when no bucket is set. */
  mediaStandIn: number;
  grpc: Record<Exclude<ComponentName, 'gateway'>, number>;
  metrics: Record<Exclude<ComponentName, 'gateway'>, number>;
}

export const DEFAULT_PORTS: Ports = {
  gateway: 3000,
  gatewayMetrics: 9460,
  identityHttp: 3001,
  billingHttp: 3004,
  mediaStandIn: 4570,
  grpc: { identity: 50051, organizations: 50052, cards: 50053, billing: 50054, ai: 50055 },
  metrics: { identity: 9461, organizations: 9462, cards: 9463, billing: 9464, ai: 9465 },
};

/** Services with a database schema, in the order their migrations run. */
export const MIGRATED_SERVICES = ['identity', 'cards', 'organizations', 'billing', 'ai'] as const;

export interface StackSecrets {
  BETTER_AUTH_SECRET: string;
  INTERNAL_TOKEN_PRIVATE_KEY: string;
  INTERNAL_TOKEN_PUBLIC_KEYS: string;
  /** The S3 stand-in's credentials: made per installation, never a published pair. */
  MEDIA_STANDIN_ACCESS_KEY_ID: string;
  MEDIA_STANDIN_SECRET_ACCESS_KEY: string;
}

export interface StackSettings {
  /** A database URL (without schema); each service gets `?schema=<service>` of it. */
  databaseUrl: string;
  redisUrl: string;
  natsUrl: string;
  ports: Ports;
  secrets: StackSecrets;
  publicBaseUrl: string;
  /** Origins besides publicBaseUrl that may call the auth API (the Vite dev server with --dev). */
  extraTrustedOrigins?: string[];
  streamName: string;
  subjectPrefix: string;
  logLevel: string;
  /** REDIS_KEY_PREFIX of every component (default `engram:`); test stacks take one of their own. */
  redisKeyPrefix?: string;
  /** Where the S3 stand-in keeps card files and uploads (npm start: .data/media); a temp dir when unset. */
  mediaStandInDir?: string;
  /** Where the Stripe stand-in keeps its state (npm start); tests keep it in memory. */
  stripeStandInStateFile?: string;
  /** ADMIN_EMAILS of identity: these addresses become admins when they sign up. */
  adminEmails?: string;
  /** Variables given to every component on top of its own (e.g. OTEL_EXPORTER_OTLP_ENDPOINT). */
  extraEnv?: Record<string, string>;
}

export function serviceDatabaseUrl(databaseUrl: string, service: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('schema', service);
  return url.toString();
}

/**
 * better-auth's limits stay on locally, roomier than production's 3 sign-ins per 10 s: one person (or
 * one test run) signs up and in many times from one address. The tRPC limits keep the gateway's defaults.
 */
const DEVELOPMENT_AUTH_RATE_LIMITS = { AUTH_RATE_LIMIT_SIGN_IN_MAX: '60' };

/** The environment of each component, in start order (services before the gateway). */
export function componentEnvironments(s: StackSettings): [ComponentName, Record<string, string>][] {
  const common = { NODE_ENV: 'development', LOG_LEVEL: s.logLevel };
  const redis = { REDIS_URL: s.redisUrl, REDIS_KEY_PREFIX: s.redisKeyPrefix ?? 'engram:' };
  const keys = { INTERNAL_TOKEN_PUBLIC_KEYS: s.secrets.INTERNAL_TOKEN_PUBLIC_KEYS };
  const events = { NATS_URL: s.natsUrl, EVENTS_STREAM: s.streamName, EVENTS_SUBJECT_PREFIX: s.subjectPrefix };
  const grpc = (name: keyof Ports['grpc']) => ({
    GRPC_PORT: String(s.ports.grpc[name]),
    METRICS_PORT: String(s.ports.metrics[name]),
  });
  const addr = (name: keyof Ports['grpc']) => `127.0.0.1:${s.ports.grpc[name]}`;
  const environments: [ComponentName, Record<string, string>][] = [
    [
      'identity',
      {
        ...common,
        ...keys,
        ...grpc('identity'),
        ...events,
        HTTP_PORT: String(s.ports.identityHttp),
        DATABASE_URL: serviceDatabaseUrl(s.databaseUrl, 'identity'),
        BETTER_AUTH_SECRET: s.secrets.BETTER_AUTH_SECRET,
        PUBLIC_BASE_URL: s.publicBaseUrl,
        ...redis,
        ...DEVELOPMENT_AUTH_RATE_LIMITS,
        ...(s.extraTrustedOrigins?.length && { AUTH_TRUSTED_ORIGINS: s.extraTrustedOrigins.join(',') }),
        // No SES settings: mail goes to the dev mailbox, readable at the gateway's /api/dev/mailbox.
        ...(s.adminEmails && { ADMIN_EMAILS: s.adminEmails }),
      },
    ],
    [
      'cards',
      {
        ...common,
        ...keys,
        ...grpc('cards'),
        ...events,
        DATABASE_URL: serviceDatabaseUrl(s.databaseUrl, 'cards'),
        BILLING_ADDR: addr('billing'),
        // No MEDIA_S3_BUCKET: card files go to the local S3 stand-in, which pages of the app may call.
        MEDIA_STANDIN_PORT: String(s.ports.mediaStandIn),
        MEDIA_STANDIN_ALLOWED_ORIGINS: [s.publicBaseUrl, ...(s.extraTrustedOrigins ?? [])].join(','),
        ...(s.mediaStandInDir && { MEDIA_STANDIN_DIR: s.mediaStandInDir }),
        MEDIA_STANDIN_ACCESS_KEY_ID: s.secrets.MEDIA_STANDIN_ACCESS_KEY_ID,
        MEDIA_STANDIN_SECRET_ACCESS_KEY: s.secrets.MEDIA_STANDIN_SECRET_ACCESS_KEY,
      },
    ],
    [
      'organizations',
      {
        ...common,
        ...keys,
        ...grpc('organizations'),
        ...events,
        DATABASE_URL: serviceDatabaseUrl(s.databaseUrl, 'organizations'),
        IDENTITY_ADDR: addr('identity'),
        CARDS_ADDR: addr('cards'),
      },
    ],
    [
      'billing',
      {
        ...common,
        ...keys,
        ...grpc('billing'),
        ...events,
        HTTP_PORT: String(s.ports.billingHttp),
        DATABASE_URL: serviceDatabaseUrl(s.databaseUrl, 'billing'),
        PUBLIC_BASE_URL: s.publicBaseUrl,
        // Without Stripe keys billing runs the local stand-in; npm start keeps its state across restarts.
        ...(s.stripeStandInStateFile && { STRIPE_STANDIN_STATE_FILE: s.stripeStandInStateFile }),
      },
    ],
    [
      'ai',
      {
        ...common,
        ...keys,
        ...grpc('ai'),
        ...events,
        DATABASE_URL: serviceDatabaseUrl(s.databaseUrl, 'ai'),
        CARDS_ADDR: addr('cards'),
        BILLING_ADDR: addr('billing'),
        // No Bedrock settings: cards are generated by the offline generator (labelled so in the web app).
      },
    ],
    [
      'gateway',
      {
        ...common,
        PORT: String(s.ports.gateway),
        METRICS_PORT: String(s.ports.gatewayMetrics),
        PUBLIC_BASE_URL: s.publicBaseUrl,
        INTERNAL_TOKEN_PRIVATE_KEY: s.secrets.INTERNAL_TOKEN_PRIVATE_KEY,
        IDENTITY_HTTP_URL: `http://127.0.0.1:${s.ports.identityHttp}`,
        BILLING_HTTP_URL: `http://127.0.0.1:${s.ports.billingHttp}`,
        IDENTITY_ADDR: addr('identity'),
        CARDS_ADDR: addr('cards'),
        ORGANIZATIONS_ADDR: addr('organizations'),
        BILLING_ADDR: addr('billing'),
        AI_ADDR: addr('ai'),
        // Browsers send card files straight to the stand-in (presigned PUTs): the pages may connect to it.
        MEDIA_UPLOAD_ORIGINS: `http://localhost:${s.ports.mediaStandIn}`,
        ...redis,
        ...(s.extraTrustedOrigins?.length && { TRUSTED_ORIGINS: s.extraTrustedOrigins.join(',') }),
      },
    ],
  ];
  return environments.map(([name, env]) => [name, { ...env, ...s.extraEnv }]);
}

export function metricsPortOf(name: ComponentName, ports: Ports): number {
  return name === 'gateway' ? ports.gatewayMetrics : ports.metrics[name];
}

export function entryPointOf(name: ComponentName): string {
  return name === 'gateway' ? `${repoRoot}gateway/dist/main.js` : `${repoRoot}services/${name}/dist/main.js`;
}
