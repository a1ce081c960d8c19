// Internal tokens: the gateway tells services who the caller is with a short-lived JWT signed with
// Ed25519 (EdDSA). Services hold only public keys (a JWKS, so keys can rotate by key id), check the
// audience is themselves, and never trust a bare user id.
import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, importJWK, type JWK, jwtVerify, SignJWT } from 'jose';

export const INTERNAL_TOKEN_ISSUER = 'engram-gateway';
export const INTERNAL_TOKEN_TTL_SECONDS = 60;
/** How far the gateway's clock may be from the service's, either way (INTERNAL_TOKEN_CLOCK_SKEW_SECONDS). */
export const DEFAULT_CLOCK_SKEW_SECONDS = 5;

/** Who a service is acting for: a signed-in user (from an internal token) or the system itself. */
export type Caller =
  | { kind: 'user'; userId: string; sessionId: string; role: string; activeOrganizationId: string | null }
  | { kind: 'system'; service: string };

export type UserCaller = Extract<Caller, { kind: 'user' }>;

export class InvalidInternalToken extends Error {
  override name = 'InvalidInternalToken';
}

export interface InternalTokenSigner {
  /** A token for a call made on behalf of a signed-in user. */
  sign(caller: Omit<UserCaller, 'kind'>, audience: string): Promise<string>;
  /** A token for a call the gateway makes for itself (for example, resolving a session). */
  signSystem(service: string, audience: string): Promise<string>;
}

/** `privateJwk` is INTERNAL_TOKEN_PRIVATE_KEY: an Ed25519 private JWK with a `kid`. */
export async function createInternalTokenSigner(privateJwk: string): Promise<InternalTokenSigner> {
  const jwk = parseJwk(privateJwk, 'INTERNAL_TOKEN_PRIVATE_KEY');
  if (!jwk.d || !jwk.kid) throw new Error('INTERNAL_TOKEN_PRIVATE_KEY must be an Ed25519 private JWK with a kid');
  const key = await importJWK(jwk, 'EdDSA');
  const signed = (claims: Record<string, unknown>, subject: string, audience: string) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: jwk.kid })
      .setSubject(subject)
      .setIssuer(INTERNAL_TOKEN_ISSUER)
      .setAudience(audience)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${INTERNAL_TOKEN_TTL_SECONDS}s`)
      .sign(key);
  return {
    sign: (caller, audience) =>
      signed(
        { kind: 'user', sid: caller.sessionId, role: caller.role, org: caller.activeOrganizationId },
        caller.userId,
        audience,
      ),
    signSystem: (service, audience) => signed({ kind: 'system' }, service, audience),
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
  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, keys, {
          issuer: INTERNAL_TOKEN_ISSUER,
          audience,
          algorithms: ['EdDSA'],
          maxTokenAge: `${INTERNAL_TOKEN_TTL_SECONDS + 30}s`,
          clockTolerance: clockSkewSeconds,
        });
        if (typeof payload.sub !== 'string') throw new Error('missing subject');
        if (payload.kind === 'system') return { kind: 'system', service: payload.sub };
        if (payload.kind !== 'user' || typeof payload.sid !== 'string') throw new Error('missing claims');
        return {
          kind: 'user',
          userId: payload.sub,
          sessionId: payload.sid,
          role: typeof payload.role === 'string' ? payload.role : 'user',
          activeOrganizationId: typeof payload.org === 'string' ? payload.org : null,
        };
      } catch (error) {
        throw new InvalidInternalToken(`invalid internal token: ${(error as Error).message}`);
      }
    },
  };
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
