// Configuration from environment variables, parsed once at start-up with zod. A service's
// src/config.ts is the only place that reads process.env; it calls loadConfig with its schema.
import { z } from 'zod';

export class ConfigError extends Error {
  readonly service: string;
  readonly problems: string[];
  constructor(service: string, problems: string[]) {
    super(`${service}: invalid configuration\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.service = service;
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

/** Parses `env` against `shape` and throws a ConfigError naming every missing or malformed variable. */
export function parseConfig<S extends z.ZodRawShape>(service: string, shape: S, env: Env): z.infer<z.ZodObject<S>> {
  // Empty strings count as unset, so `FOO=` in a shell behaves like a missing FOO.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = z.object(shape).safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const missing = issue.code === 'invalid_type' && cleaned[name] === undefined;
    return missing ? `${name}: is required but not set` : `${name}: ${issue.message}`;
  });
  throw new ConfigError(service, problems);
}

/**
 * parseConfig for a process entry point: on a bad environment it prints the problems and exits at once.
 * `check` runs rules across variables after parsing and may throw a ConfigError of its own.
 */
export function loadConfig<S extends z.ZodRawShape, R = z.infer<z.ZodObject<S>>>(
  service: string,
  shape: S,
  env: Env,
  check?: (config: z.infer<z.ZodObject<S>>) => R,
): R {
  try {
    const config = parseConfig(service, shape, env);
    return check ? check(config) : (config as R);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
}

const PORT_PROBLEM = 'must be a port number (0-65535)';

// Reusable variable schemas, so every service reads the same names the same way.
export const vars = {
  nodeEnv: z.enum(['development', 'test', 'production']).default('development'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  port: (fallback: number) =>
    z.coerce
      .number({ error: PORT_PROBLEM })
      .int({ error: PORT_PROBLEM })
      .min(0, { error: PORT_PROBLEM })
      .max(65535, { error: PORT_PROBLEM })
      .default(fallback),
  url: (protocols: string[]) =>
    z
      .url({ message: `must be a URL (${protocols.join(', ')})` })
      .refine(
        (value) => protocols.some((p) => value.startsWith(`${p}://`)),
        `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
      ),
  /** An AWS region (eu-west-1, sa-east-1), for SES, SNS, S3 and Bedrock. */
  awsRegion: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region such as eu-west-1'),
  /** host:port of a gRPC peer, the microservices-demo <SERVICE>_ADDR convention. */
  address: z.string().regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port'),
  optionalUrl: z.url({ message: 'must be a URL' }).optional(),
  /** Comma-separated list. */
  list: z.string().transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  ),
  /** A whole number of at least 1 (a limit, a count, a number of seconds). */
  positiveInt: (fallback: number) =>
    z.coerce.number().int().min(1, 'must be a whole number of at least 1').default(fallback),
  bool: z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1'),
};

/** Static AWS credentials when both halves are set, else undefined (the SDK's own chain decides: an IAM role). */
export function awsCredentialsOf(config: {
  AWS_ACCESS_KEY_ID?: string | undefined;
  AWS_SECRET_ACCESS_KEY?: string | undefined;
}): { accessKeyId: string; secretAccessKey: string } | undefined {
  return config.AWS_ACCESS_KEY_ID && config.AWS_SECRET_ACCESS_KEY
    ? { accessKeyId: config.AWS_ACCESS_KEY_ID, secretAccessKey: config.AWS_SECRET_ACCESS_KEY }
    : undefined;
}

/** The variables every service shares (docs/architecture.md#conventions). */
export const commonVars = {
  NODE_ENV: vars.nodeEnv,
  LOG_LEVEL: vars.logLevel,
  OTEL_EXPORTER_OTLP_ENDPOINT: vars.optionalUrl,
  /** The deployed version (the image tag in Kubernetes). */
  SERVICE_VERSION: z.string().default('dev'),
};

const DEVELOPMENT_BASE_URL = 'http://localhost:3000';

/**
 * Where the app lives has no silent default in production: production must name PUBLIC_BASE_URL, and
 * NODE_ENV must be said outright when the app is served anywhere but localhost. Development keeps
 * http://localhost:3000. Returns the URL to use or throws a ConfigError.
 */
export function publicBaseUrlOf(
  service: string,
  config: { NODE_ENV: string; PUBLIC_BASE_URL?: string | undefined },
  env: Env,
): string {
  const problems: string[] = [];
  const url = config.PUBLIC_BASE_URL;
  if (!env.NODE_ENV && url && !['localhost', '127.0.0.1'].includes(new URL(url).hostname)) {
    problems.push('NODE_ENV: must be set (production, development or test) when PUBLIC_BASE_URL is not localhost');
  }
  if (config.NODE_ENV === 'production' && !url) {
    problems.push('PUBLIC_BASE_URL: is required in production (the URL people open)');
  }
  if (problems.length > 0) throw new ConfigError(service, problems);
  return url ?? DEVELOPMENT_BASE_URL;
}
