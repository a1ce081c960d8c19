// A stand-in for a captcha provider's siteverify endpoint (reCAPTCHA, Turnstile and hCaptcha share its
// protocol: a POST of secret, response and remoteip, answered with JSON `success`), for tests that
// drive better-auth's captcha plugin: a token the test issued passes once, anything else fails, and the
// endpoint can be made to fail as a provider outage would.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as bodyText } from 'node:stream/consumers';

export interface CaptchaFake {
  /** CAPTCHA_VERIFY_URL. */
  url: string;
  secretKey: string;
  siteKey: string;
  /** A token a person who solved the challenge would send (valid once). */
  solve(options?: { score?: number }): string;
  /** Form bodies received. */
  verifications: URLSearchParams[];
  /** While down, the endpoint answers 503. */
  setDown(down: boolean): void;
  stop(): Promise<void>;
}

export async function startCaptchaFake(): Promise<CaptchaFake> {
  const secretKey = randomBytes(12).toString('hex');
  const siteKey = `site-${randomBytes(6).toString('hex')}`;
  const solved = new Map<string, { score: number | undefined }>();
  const verifications: URLSearchParams[] = [];
  let down = false;
  const server = createServer(async (req, res) => {
    // reCAPTCHA and hCaptcha post a form, Turnstile posts JSON.
    const text = await bodyText(req);
    const form = req.headers['content-type']?.includes('json')
      ? new URLSearchParams(JSON.parse(text) as Record<string, string>)
      : new URLSearchParams(text);
    verifications.push(form);
    if (down) return res.writeHead(503).end();
    const token = form.get('response') ?? '';
    const entry = solved.get(token);
    solved.delete(token);
    const success = form.get('secret') === secretKey && entry !== undefined;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        success,
        ...(entry?.score !== undefined && { score: entry.score, action: 'submit' }),
        hostname: 'localhost',
        ...(!success && { 'error-codes': ['invalid-input-response'] }),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
    secretKey,
    siteKey,
    verifications,
    solve(options = {}) {
      const token = randomBytes(16).toString('hex');
      solved.set(token, { score: options.score });
      return token;
    },
    setDown(value) {
      down = value;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
