// A stand-in for an OAuth 2.0 provider at its HTTP protocol, for sign-in tests that drive better-auth's
// real social and generic OAuth code: an authorization endpoint that "signs in" the person the test
// chose and redirects back with a code and the state, a token endpoint that checks the client and the
// code (and the PKCE verifier when a challenge was sent), and user-info endpoints in two shapes:
// GitLab's (`/api/v4/user`, for the gitlab provider with GITLAB_ISSUER) and OIDC's (`/userinfo`).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as bodyText } from 'node:stream/consumers';

export interface FakeOAuthPerson {
  id: string;
  email: string;
  name: string;
  emailVerified?: boolean;
}

export interface OAuthProviderFake {
  /** The issuer: GITLAB_ISSUER, or the base of the generic provider's URLs. */
  url: string;
  clientId: string;
  clientSecret: string;
  /** Who is signed in at the provider when the next authorization request arrives. */
  signInAs(person: FakeOAuthPerson): void;
  /** Authorization requests received (their query parameters). */
  authorizations: URLSearchParams[];
  stop(): Promise<void>;
}

export async function startOAuthProviderFake(): Promise<OAuthProviderFake> {
  const clientId = `client-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(16).toString('hex');
  let person: FakeOAuthPerson | undefined;
  const authorizations: URLSearchParams[] = [];
  const codes = new Map<string, { person: FakeOAuthPerson; redirectUri: string; challenge: string | null }>();
  const tokens = new Map<string, FakeOAuthPerson>();

  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
      authorizations.push(url.searchParams);
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      if (url.searchParams.get('client_id') !== clientId || !person)
        return json(res, 400, { error: 'invalid_request' });
      const code = randomBytes(12).toString('hex');
      codes.set(code, { person, redirectUri, challenge: url.searchParams.get('code_challenge') });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/oauth/token') {
      const form = new URLSearchParams(await bodyText(req));
      const basic = req.headers.authorization?.startsWith('Basic ')
        ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString().split(':')
        : [];
      const id = form.get('client_id') ?? decodeURIComponent(basic[0] ?? '');
      const secret = form.get('client_secret') ?? decodeURIComponent(basic[1] ?? '');
      if (id !== clientId || secret !== clientSecret) return json(res, 401, { error: 'invalid_client' });
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!grant || grant.redirectUri !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant' });
      if (grant.challenge) {
        const verifier = form.get('code_verifier') ?? '';
        if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
          return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      }
      const accessToken = randomBytes(16).toString('hex');
      tokens.set(accessToken, grant.person);
      return json(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: 'read_user' });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const holder = bearer ? tokens.get(bearer) : undefined;
    if (req.method === 'GET' && (url.pathname === '/api/v4/user' || url.pathname === '/userinfo')) {
      if (!holder) return json(res, 401, { error: 'invalid_token' });
      if (url.pathname === '/api/v4/user') {
        return json(res, 200, {
          id: Number(holder.id),
          username: holder.email.split('@')[0],
          name: holder.name,
          email: holder.email,
          email_verified: holder.emailVerified ?? true,
          state: 'active',
          avatar_url: null,
        });
      }
      // Plain OAuth providers name the person by `id`, OIDC ones by `sub`: both, so either reading works.
      return json(res, 200, {
        id: holder.id,
        sub: holder.id,
        email: holder.email,
        email_verified: holder.emailVerified ?? true,
        name: holder.name,
      });
    }
    json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    clientId,
    clientSecret,
    authorizations,
    signInAs(next) {
      person = next;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
