// Security headers on every response (the SPA loads only its own scripts, styles and images, and another site's
// only for what is configured: Google Analytics' tag, Google's sign-in prompt, the captcha's widget), HSTS over
// https, and no caching of API responses. Images come from Engram alone (data: for pictures kept with a user), so
// nothing in a card, a shared deck or a profile can make a learner's browser ask another site for anything (a
// tracking pixel).
import type { CaptchaProvider } from '@engram/contracts/auth-features';
import type { NextFunction, Request, Response } from 'express';

/** What a page may load from another site, by directive. */
interface Sources {
  script?: string[];
  style?: string[];
  frame?: string[];
  img?: string[];
  connect?: string[];
}

/** Google Analytics 4's tag and the hosts it reports to (only when a measurement id is configured). */
const ANALYTICS_HOSTS = [
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
  'https://*.googletagmanager.com',
];
const ANALYTICS: Sources = {
  script: ['https://www.googletagmanager.com'],
  img: ANALYTICS_HOSTS,
  connect: ANALYTICS_HOSTS,
};

/** Google One Tap's script, styles, prompt frame and calls (Google's documented sources for its sign-in client). */
const ONE_TAP: Sources = {
  script: ['https://accounts.google.com/gsi/client'],
  style: ['https://accounts.google.com/gsi/style'],
  frame: ['https://accounts.google.com/gsi/'],
  connect: ['https://accounts.google.com/gsi/'],
};

/** Each captcha's widget, as its maker documents it for a content security policy. */
const RECAPTCHA: Sources = {
  script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
  frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
};
const HCAPTCHA_HOSTS = ['https://hcaptcha.com', 'https://*.hcaptcha.com'];
export const CAPTCHA_SOURCES: Record<CaptchaProvider, Sources> = {
  'google-recaptcha-v3': RECAPTCHA,
  'google-recaptcha-v2-checkbox': RECAPTCHA,
  'google-recaptcha-v2-invisible': RECAPTCHA,
  'cloudflare-turnstile': {
    script: ['https://challenges.cloudflare.com'],
    frame: ['https://challenges.cloudflare.com'],
  },
  hcaptcha: { script: HCAPTCHA_HOSTS, frame: HCAPTCHA_HOSTS, style: HCAPTCHA_HOSTS, connect: HCAPTCHA_HOSTS },
};

const contentSecurityPolicy = (others: Sources[], uploadOrigins: readonly string[]) => {
  const of = (directive: keyof Sources) => [...new Set(others.flatMap((sources) => sources[directive] ?? []))];
  const frames = of('frame');
  return [
    "default-src 'self'",
    ["script-src 'self'", ...of('script')].join(' '),
    ["style-src 'self' 'unsafe-inline'", ...of('style')].join(' '),
    ...(frames.length > 0 ? [`frame-src ${frames.join(' ')}`] : []),
    // The maths fonts are Engram's own; the build inlines the smallest as data: URLs.
    "font-src 'self' data:",
    ["img-src 'self' data:", ...of('img')].join(' '),
    // Files go straight to the object store (a presigned PUT): its origin is the one other place a page sends to.
    ["connect-src 'self'", ...uploadOrigins, ...of('connect')].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
};

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * `publicBaseUrl` decides HSTS together with the request: served over https (the public URL says so, or
 * a trusted proxy's X-Forwarded-Proto does), browsers are told to use nothing else. With Google sign-in's One Tap
 * (`oneTap`), the page may open Google's sign-in popup (Safari's way to it) and keep talking to it.
 */
export const securityHeaders = (
  publicBaseUrl: string,
  {
    analytics = false,
    oneTap = false,
    captcha = undefined as CaptchaProvider | undefined,
    uploadOrigins = [] as readonly string[],
  } = {},
) => {
  const publicIsHttps = publicBaseUrl.startsWith('https://');
  const others = [
    ...(analytics ? [ANALYTICS] : []),
    ...(oneTap ? [ONE_TAP] : []),
    ...(captcha ? [CAPTCHA_SOURCES[captcha]] : []),
  ];
  const csp = contentSecurityPolicy(others, uploadOrigins);
  const openerPolicy = oneTap ? 'same-origin-allow-popups' : 'same-origin';
  return (req: Request, res: Response, next: NextFunction) => {
    // API answers are private to the signed-in user and always current: never cache them.
    if (req.path.startsWith('/api/')) res.setHeader('cache-control', 'no-store');
    if (publicIsHttps || req.secure) res.setHeader('strict-transport-security', HSTS);
    res.setHeader('content-security-policy', csp);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'strict-origin-when-cross-origin');
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('cross-origin-opener-policy', openerPolicy);
    next();
  };
};
