// The environment of the optional sign-in methods: social providers (`<PROVIDER>_CLIENT_ID` and
// `<PROVIDER>_CLIENT_SECRET` for every provider of SOCIAL_PROVIDERS), generic OAuth/OIDC providers
// (OAUTH_PROVIDERS, JSON) and captcha (CAPTCHA_*). Each is off until configured; half a configuration
// (an id without its secret, a provider without its keys) stops the service with a message naming it.
import {
  CAPTCHA_PROVIDERS,
  type CaptchaProvider,
  SOCIAL_PROVIDERS,
  type SocialProvider,
} from '@engram/contracts/auth-features';
import { ConfigError, vars } from '@engram/kit/config';
import { z } from 'zod';

const envName = (provider: SocialProvider) => provider.toUpperCase() as Uppercase<SocialProvider>;

const clientVars = Object.fromEntries(
  SOCIAL_PROVIDERS.flatMap((provider) => [
    [`${envName(provider)}_CLIENT_ID`, z.string().optional()],
    [`${envName(provider)}_CLIENT_SECRET`, z.string().optional()],
  ]),
) as Record<`${Uppercase<SocialProvider>}_CLIENT_${'ID' | 'SECRET'}`, z.ZodOptional<z.ZodString>>;

export const socialProviderVars = {
  ...clientVars,
  /** A self-hosted GitLab's address (default https://gitlab.com). */
  GITLAB_ISSUER: vars.optionalUrl,
};

const genericProvider = z
  .object({
    providerId: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'providerId: lower-case letters, digits and dashes'),
    name: z.string().min(1).optional(),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1).optional(),
    /** An OIDC issuer's `/.well-known/openid-configuration`; otherwise the three URLs below. */
    discoveryUrl: z.url().optional(),
    authorizationUrl: z.url().optional(),
    tokenUrl: z.url().optional(),
    userInfoUrl: z.url().optional(),
    scopes: z.array(z.string()).optional(),
    pkce: z.boolean().optional(),
  })
  .strict()
  .refine(
    (provider) => provider.discoveryUrl || (provider.authorizationUrl && provider.tokenUrl),
    'needs discoveryUrl, or authorizationUrl and tokenUrl',
  );
export type GenericOAuthProvider = z.infer<typeof genericProvider> & { name: string };

export const genericOAuthVars = {
  /**
   * Generic OAuth/OIDC providers as a JSON array of
   * `{ providerId, name?, clientId, clientSecret?, discoveryUrl? | authorizationUrl, tokenUrl, userInfoUrl?, scopes?, pkce? }`.
   */
  OAUTH_PROVIDERS: z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON (an array of providers)' });
        return z.NEVER;
      }
    })
    .pipe(
      z
        .array(genericProvider)
        .refine(
          (providers) => new Set(providers.map((p) => p.providerId)).size === providers.length,
          'each providerId only once',
        ),
    )
    .optional(),
};

export const captchaVars = {
  CAPTCHA_PROVIDER: z.enum(CAPTCHA_PROVIDERS).optional(),
  /** The provider's secret, which identity sends to its verify endpoint. */
  CAPTCHA_SECRET_KEY: z.string().optional(),
  /** The public site key the web app renders the widget with. */
  CAPTCHA_SITE_KEY: z.string().optional(),
  /** Another verify endpoint than the provider's (a proxy; a fake in tests). */
  CAPTCHA_VERIFY_URL: vars.optionalUrl,
  /** reCAPTCHA v3: the lowest score accepted. */
  CAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
};

export interface CaptchaSettings {
  provider: CaptchaProvider;
  secretKey: string;
  siteKey: string;
  verifyUrl?: string | undefined;
  minScore: number;
}

export interface SocialProviderSettings {
  clientId: string;
  clientSecret: string;
  /** GitLab only: a self-hosted instance. */
  issuer?: string | undefined;
}

export interface SignInMethods {
  socialProviders: Partial<Record<SocialProvider, SocialProviderSettings>>;
  genericOAuth: GenericOAuthProvider[];
  captcha: CaptchaSettings | null;
}

type MethodsConfig = Partial<Record<keyof typeof clientVars, string>> & {
  GITLAB_ISSUER?: string | undefined;
  OAUTH_PROVIDERS?: z.infer<typeof genericProvider>[] | undefined;
  CAPTCHA_PROVIDER?: CaptchaProvider | undefined;
  CAPTCHA_SECRET_KEY?: string | undefined;
  CAPTCHA_SITE_KEY?: string | undefined;
  CAPTCHA_VERIFY_URL?: string | undefined;
  CAPTCHA_MIN_SCORE: number;
};

/** The configured sign-in methods, or a ConfigError naming every half-configured one. */
export function signInMethodsOf(config: MethodsConfig): SignInMethods {
  const problems: string[] = [];
  const socialProviders: SignInMethods['socialProviders'] = {};
  for (const provider of SOCIAL_PROVIDERS) {
    const id = `${envName(provider)}_CLIENT_ID` as const;
    const secret = `${envName(provider)}_CLIENT_SECRET` as const;
    const clientId = config[id];
    const clientSecret = config[secret];
    if (clientId && clientSecret) {
      socialProviders[provider] = {
        clientId,
        clientSecret,
        ...(provider === 'gitlab' && config.GITLAB_ISSUER && { issuer: config.GITLAB_ISSUER }),
      };
    } else if (clientId || clientSecret)
      problems.push(`${clientId ? secret : id}: is required when ${clientId ? id : secret} is set`);
  }
  for (const generic of config.OAUTH_PROVIDERS ?? []) {
    if ((SOCIAL_PROVIDERS as readonly string[]).includes(generic.providerId)) {
      problems.push(
        `OAUTH_PROVIDERS: "${generic.providerId}" is a social provider; use ${generic.providerId.toUpperCase()}_CLIENT_ID`,
      );
    }
  }
  let captcha: CaptchaSettings | null = null;
  if (config.CAPTCHA_PROVIDER) {
    if (!config.CAPTCHA_SECRET_KEY) problems.push('CAPTCHA_SECRET_KEY: is required when CAPTCHA_PROVIDER is set');
    if (!config.CAPTCHA_SITE_KEY) problems.push('CAPTCHA_SITE_KEY: is required when CAPTCHA_PROVIDER is set');
    if (config.CAPTCHA_SECRET_KEY && config.CAPTCHA_SITE_KEY) {
      captcha = {
        provider: config.CAPTCHA_PROVIDER,
        secretKey: config.CAPTCHA_SECRET_KEY,
        siteKey: config.CAPTCHA_SITE_KEY,
        verifyUrl: config.CAPTCHA_VERIFY_URL,
        minScore: config.CAPTCHA_MIN_SCORE,
      };
    }
  } else if (config.CAPTCHA_SECRET_KEY || config.CAPTCHA_SITE_KEY) {
    problems.push('CAPTCHA_PROVIDER: is required when CAPTCHA_SECRET_KEY or CAPTCHA_SITE_KEY is set');
  }
  if (problems.length > 0) throw new ConfigError('identity', problems);
  return {
    socialProviders,
    genericOAuth: (config.OAUTH_PROVIDERS ?? []).map((p) => ({ ...p, name: p.name ?? p.providerId })),
    captcha,
  };
}
