// Internal tokens: the gateway tells services who the caller is with a short-lived JWT signed with
// Ed25519 (EdDSA). Services hold only public keys (a JWKS, so keys can rotate by key id), check the
// audience is themselves, and never trust a bare user id.
import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, importJWK, type JWK, jwtVerify, SignJWT } from 'jose';

export const INTERNAL_TOKEN_ISSUER = 'engram-gateway';
export const INTERNAL_TOKEN_TTL_SECONDS = 60;
/** How far the gateway's clock may be from the service's, either way (INTERNAL_TOKEN_CLOCK_SKEW_SECONDS). */
export const DEFAULT_CLOCK_SKEW_SECONDS = 5;
/**
 * A signed token is handed out again for the same caller and audience while it is younger than this, so
 * a busy user costs one signature per service every 30 s rather than one per call (a signature and its
 * verification cost more than a short handler). Every token still lives INTERNAL_TOKEN_TTL_SECONDS from
 * its own issue, so one handed out is always valid for at least the other half of its life.
 */
export const INTERNAL_TOKEN_REUSE_SECONDS = INTERNAL_TOKEN_TTL_SECONDS / 2;
const MAX_TOKEN_AGE_SECONDS = INTERNAL_TOKEN_TTL_SECONDS + 30;
/** How many tokens a signer or a verifier remembers at most (the oldest are forgotten first). */
const REMEMBERED_TOKENS = 10_000;

/** A bounded map that forgets its oldest entries first. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.set(key, value);
  if (map.size > REMEMBERED_TOKENS) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}

/** Who a service is acting for: a signed-in user (from an internal token) or the system itself. */
export type Caller =
  | { kind: 'user'; userId: string; sessionId: string; role: string; activeOrganizationId: string | null }
  | { kind: 'system'; service: string };

export type UserCaller = Extract<Caller, { kind: 'user' }>;

export class InvalidInternalToken extends Error {
  override name = 'InvalidInternalToken';
}

export interface InternalTokenSigner {
  /**
   * A token for a call made on behalf of a signed-in user. Several audiences when the called service
   * forwards the token to others on the user's behalf (ai asks cards and billing).
   */
  sign(caller: Omit<UserCaller, 'kind'>, audience: string | string[]): Promise<string>;
  /** A token for a call the gateway makes for itself (for example, resolving a session). */
  signSystem(service: string, audience: string): Promise<string>;
}

/** `privateJwk` is INTERNAL_TOKEN_PRIVATE_KEY: an Ed25519 private JWK with a `kid`. */
export async function createInternalTokenSigner(privateJwk: string): Promise<InternalTokenSigner> {
  const jwk = parseJwk(privateJwk, 'INTERNAL_TOKEN_PRIVATE_KEY');
  if (!jwk.d || !jwk.kid) throw new Error('INTERNAL_TOKEN_PRIVATE_KEY must be an Ed25519 private JWK with a kid');
  const key = await importJWK(jwk, 'EdDSA');
  const signed = (claims: Record<string, unknown>, subject: string, audience: string | string[]) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: jwk.kid })
      .setSubject(subject)
      .setIssuer(INTERNAL_TOKEN_ISSUER)
      .setAudience(audience)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${INTERNAL_TOKEN_TTL_SECONDS}s`)
      .sign(key);
  const recent = new Map<string, { issuedAt: number; token: Promise<string> }>();
  const reused = (claims: Record<string, unknown>, subject: string, audience: string | string[]) => {
    const key = JSON.stringify([claims, subject, audience]);
    const now = Date.now();
    const known = recent.get(key);
    const age = known ? now - known.issuedAt : Number.POSITIVE_INFINITY;
    if (known && age >= 0 && age < INTERNAL_TOKEN_REUSE_SECONDS * 1000) return known.token;
    const token = signed(claims, subject, audience);
    recent.delete(key);
    remember(recent, key, { issuedAt: now, token });
    token.catch(() => recent.delete(key));
    return token;
  };
  return {
    sign: (caller, audience) =>
      reused(
        { kind: 'user', sid: caller.sessionId, role: caller.role, org: caller.activeOrganizationId },
        caller.userId,
        audience,
      ),
    signSystem: (service, audience) => reused({ kind: 'system' }, service, audience),
  };
}

export interface InternalTokenVerifier {
  verify(token: string): Promise<Caller>;
}

export interface VerifierOptions {
  /** Accepted clock difference between signer and verifier, in seconds, both ways (default 5). */
  clockSkewSeconds?: number;
}

/**
 * `publicJwks` is INTERNAL_TOKEN_PUBLIC_KEYS: `{"keys":[...]}` of Ed25519 public JWKs; `audience` is this
 * service. A token issued up to `clockSkewSeconds` in the future, or expired no longer ago than that, is
 * still accepted: the gateway's and the service's clocks are never exactly in step.
 */
export function createInternalTokenVerifier(
  publicJwks: string,
  audience: string,
  options: VerifierOptions = {},
): InternalTokenVerifier {
  const clockSkewSeconds = options.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS;
  if (!Number.isFinite(clockSkewSeconds) || clockSkewSeconds < 0) {
    throw new Error('the internal token clock skew must be a number of seconds, 0 or more');
  }
  let parsed: { keys: JWK[] };
  try {
    parsed = JSON.parse(publicJwks);
  } catch {
    throw new Error('INTERNAL_TOKEN_PUBLIC_KEYS must be a JWKS JSON document');
  }
  if (!Array.isArray(parsed.keys) || parsed.keys.length === 0) {
    throw new Error('INTERNAL_TOKEN_PUBLIC_KEYS must hold at least one key');
  }
  const keys = createLocalJWKSet(parsed as never);
  // A token that verified stays valid until its expiry (a later clock only gets closer to it), so the
  // signature is checked once per token, not once per call; a refused token is never remembered.
  const verified = new Map<string, { until: number; caller: Caller }>();
  return {
    async verify(token) {
      const known = verified.get(token);
      if (known && Date.now() < known.until) return known.caller;
      if (known) verified.delete(token);
      return verifySignature(token);
    },
  };

  async function verifySignature(token: string): Promise<Caller> {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: INTERNAL_TOKEN_ISSUER,
        audience,
        algorithms: ['EdDSA'],
        maxTokenAge: `${MAX_TOKEN_AGE_SECONDS}s`,
        clockTolerance: clockSkewSeconds,
      });
      if (typeof payload.sub !== 'string') throw new Error('missing subject');
      if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number') throw new Error('missing lifetime');
      let caller: Caller;
      if (payload.kind === 'system') caller = { kind: 'system', service: payload.sub };
      else if (payload.kind !== 'user' || typeof payload.sid !== 'string') throw new Error('missing claims');
      else {
        caller = {
          kind: 'user',
          userId: payload.sub,
          sessionId: payload.sid,
          role: typeof payload.role === 'string' ? payload.role : 'user',
          activeOrganizationId: typeof payload.org === 'string' ? payload.org : null,
        };
      }
      const until = Math.min(payload.exp, payload.iat + MAX_TOKEN_AGE_SECONDS) * 1000;
      remember(verified, token, { until, caller });
      return caller;
    } catch (error) {
      throw new InvalidInternalToken(`invalid internal token: ${(error as Error).message}`);
    }
  }
}

/** A fresh key pair as the two environment values (for `npm start` development secrets and tests). */
export async function generateInternalKeys(
  kid: string = randomUUID(),
): Promise<{ privateJwk: string; publicJwks: string }> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const priv = { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' };
  const pub = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  return { privateJwk: JSON.stringify(priv), publicJwks: JSON.stringify({ keys: [pub] }) };
}

function parseJwk(value: string, name: string): JWK {
  try {
    return JSON.parse(value) as JWK;
  } catch {
    throw new Error(`${name} must be a JWK JSON document`);
  }
}
