// Internal tokens: what the gateway signs a service can verify with public keys only, keys can rotate by
// key id, and a token that was altered, has expired or is addressed to another service is refused.
import {
  createInternalTokenSigner,
  createInternalTokenVerifier,
  generateInternalKeys,
  INTERNAL_TOKEN_ISSUER,
  InvalidInternalToken,
} from '@engram/kit/internal-auth';
import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';

const alice = { userId: 'user-alice', sessionId: 'session-1', role: 'admin', activeOrganizationId: 'org-1' };

async function keyPair(kid?: string) {
  const keys = await generateInternalKeys(kid);
  return { keys, signer: await createInternalTokenSigner(keys.privateJwk) };
}

describe('generateInternalKeys', () => {
  it('returns an Ed25519 private JWK and a JWKS holding its public half, under one kid', async () => {
    const { privateJwk, publicJwks } = await generateInternalKeys('key-2026');
    expect(JSON.parse(privateJwk)).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', kid: 'key-2026' });
    expect(JSON.parse(privateJwk).d).toEqual(expect.any(String));
    const { keys } = JSON.parse(publicJwks);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: 'key-2026' });
    expect(keys[0].x).toBe(JSON.parse(privateJwk).x);
    expect(keys[0]).not.toHaveProperty('d');
  });

  it('gives every pair its own kid by default', async () => {
    const [a, b] = await Promise.all([generateInternalKeys(), generateInternalKeys()]);
    expect(JSON.parse(a.privateJwk).kid).not.toBe(JSON.parse(b.privateJwk).kid);
  });
});

describe('sign and verify', () => {
  it('round-trips a user caller', async () => {
    const { keys, signer } = await keyPair();
    const token = await signer.sign(alice, 'cards');
    expect(await createInternalTokenVerifier(keys.publicJwks, 'cards').verify(token)).toEqual({
      kind: 'user',
      ...alice,
    });
  });

  it('round-trips a user with no active organization', async () => {
    const { keys, signer } = await keyPair();
    const token = await signer.sign({ ...alice, activeOrganizationId: null }, 'cards');
    const caller = await createInternalTokenVerifier(keys.publicJwks, 'cards').verify(token);
    expect(caller).toMatchObject({ kind: 'user', activeOrganizationId: null });
  });

  it('round-trips a system caller', async () => {
    const { keys, signer } = await keyPair();
    const token = await signer.signSystem('gateway', 'identity');
    const caller = await createInternalTokenVerifier(keys.publicJwks, 'identity').verify(token);
    expect(caller).toEqual({ kind: 'system', service: 'gateway' });
  });

  it('names the signing key in the token header, so verifiers can pick it during a rotation', async () => {
    const { signer } = await keyPair('key-a');
    expect(decodeProtectedHeader(await signer.sign(alice, 'cards'))).toMatchObject({ alg: 'EdDSA', kid: 'key-a' });
  });

  it('verifies tokens from both the old and the new key while a JWKS holds both', async () => {
    const old = await keyPair('key-old');
    const next = await keyPair('key-new');
    const jwks = JSON.stringify({
      keys: [...JSON.parse(old.keys.publicJwks).keys, ...JSON.parse(next.keys.publicJwks).keys],
    });
    const verifier = createInternalTokenVerifier(jwks, 'cards');
    expect(await verifier.verify(await old.signer.sign(alice, 'cards'))).toMatchObject({ userId: alice.userId });
    expect(await verifier.verify(await next.signer.sign(alice, 'cards'))).toMatchObject({ userId: alice.userId });
    // Once the old key leaves the JWKS, its tokens stop verifying.
    const afterRotation = createInternalTokenVerifier(next.keys.publicJwks, 'cards');
    await expect(afterRotation.verify(await old.signer.sign(alice, 'cards'))).rejects.toThrow(InvalidInternalToken);
  });
});

describe('refused tokens', () => {
  it('refuses a token whose claims were altered', async () => {
    const { keys, signer } = await keyPair();
    const [header, payload, signature] = (await signer.sign(alice, 'cards')).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'user-mallory' })).toString('base64url');
    const verifier = createInternalTokenVerifier(keys.publicJwks, 'cards');
    await expect(verifier.verify(`${header}.${forged}.${signature}`)).rejects.toThrow(InvalidInternalToken);
  });

  it('refuses an expired token signed by the real key', async () => {
    const { keys } = await keyPair();
    const jwk = JSON.parse(keys.privateJwk);
    // Issued recently enough to pass the maximum-age check, so only its exp makes it invalid.
    const issuedAt = Math.floor(Date.now() / 1000) - 70;
    const expired = await new SignJWT({ kind: 'user', sid: alice.sessionId, role: alice.role })
      .setProtectedHeader({ alg: 'EdDSA', kid: jwk.kid })
      .setSubject(alice.userId)
      .setIssuer(INTERNAL_TOKEN_ISSUER)
      .setAudience('cards')
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 60)
      .sign(await importJWK(jwk, 'EdDSA'));
    const verifier = createInternalTokenVerifier(keys.publicJwks, 'cards');
    await expect(verifier.verify(expired)).rejects.toThrow(/invalid internal token: .*exp/);
  });

  it('refuses a token addressed to another service', async () => {
    const { keys, signer } = await keyPair();
    const verifier = createInternalTokenVerifier(keys.publicJwks, 'cards');
    await expect(verifier.verify(await signer.sign(alice, 'billing'))).rejects.toThrow(/invalid internal token: .*aud/);
  });

  it('refuses a token signed by a key that is not in the JWKS', async () => {
    const { keys } = await keyPair();
    const stranger = await keyPair();
    const verifier = createInternalTokenVerifier(keys.publicJwks, 'cards');
    await expect(verifier.verify(await stranger.signer.sign(alice, 'cards'))).rejects.toThrow(InvalidInternalToken);
  });

  it('refuses to start with a JWKS that is not JSON or holds no keys', () => {
    expect(() => createInternalTokenVerifier('not json', 'cards')).toThrow(/JWKS JSON/);
    expect(() => createInternalTokenVerifier('{"keys":[]}', 'cards')).toThrow(/at least one key/);
  });

  it('refuses to sign with a public key', async () => {
    const { keys } = await keyPair();
    const publicJwk = JSON.stringify(JSON.parse(keys.publicJwks).keys[0]);
    await expect(createInternalTokenSigner(publicJwk)).rejects.toThrow(/private JWK with a kid/);
  });
});

describe('clock skew between the gateway and a service', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A token signed when the gateway's clock reads `skewSeconds` from the service's (negative: behind). */
  async function signedWithSkew(skewSeconds: number, ageSeconds = 0) {
    const { keys, signer } = await keyPair();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (skewSeconds - ageSeconds) * 1000 });
    const token = await signer.sign(alice, 'cards');
    vi.useRealTimers();
    return { keys, token };
  }

  it('accepts a token from a gateway whose clock is up to 5 seconds ahead', async () => {
    const { keys, token } = await signedWithSkew(4);
    await expect(createInternalTokenVerifier(keys.publicJwks, 'cards').verify(token)).resolves.toMatchObject({
      userId: alice.userId,
    });
  });

  it('refuses a token from a gateway whose clock is further ahead than the tolerance', async () => {
    const { keys, token } = await signedWithSkew(10);
    await expect(createInternalTokenVerifier(keys.publicJwks, 'cards').verify(token)).rejects.toThrow(
      /invalid internal token: .*iat/,
    );
  });

  it('accepts a token whose lifetime ended less than 5 seconds ago by the service clock (gateway behind)', async () => {
    const { keys, token } = await signedWithSkew(-4, 60);
    await expect(createInternalTokenVerifier(keys.publicJwks, 'cards').verify(token)).resolves.toMatchObject({
      userId: alice.userId,
    });
  });

  it('refuses a token whose lifetime ended further back than the tolerance (gateway behind)', async () => {
    const { keys, token } = await signedWithSkew(-10, 60);
    await expect(createInternalTokenVerifier(keys.publicJwks, 'cards').verify(token)).rejects.toThrow(
      /invalid internal token: .*exp/,
    );
  });

  it('takes another tolerance when configured, and none at 0', async () => {
    const ahead = await signedWithSkew(10);
    const strict = await signedWithSkew(2);
    await expect(
      createInternalTokenVerifier(ahead.keys.publicJwks, 'cards', { clockSkewSeconds: 15 }).verify(ahead.token),
    ).resolves.toMatchObject({ kind: 'user' });
    await expect(
      createInternalTokenVerifier(strict.keys.publicJwks, 'cards', { clockSkewSeconds: 0 }).verify(strict.token),
    ).rejects.toThrow(InvalidInternalToken);
  });

  it('refuses a negative tolerance at start-up', () => {
    expect(() => createInternalTokenVerifier('{"keys":[{}]}', 'cards', { clockSkewSeconds: -1 })).toThrow(
      /clock skew must be a number of seconds/,
    );
  });
});

describe('tokens handed out again and remembered', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands a caller the same token for one service for half its lifetime, then a fresh one', async () => {
    const { signer } = await keyPair();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const first = await signer.sign(alice, 'cards');
    vi.advanceTimersByTime(29_000);
    expect(await signer.sign(alice, 'cards')).toBe(first);
    expect(await signer.sign(alice, 'identity')).not.toBe(first);
    expect(await signer.sign({ ...alice, role: 'user' }, 'cards')).not.toBe(first);
    vi.advanceTimersByTime(1_000);
    const fresh = await signer.sign(alice, 'cards');
    expect(fresh).not.toBe(first);
    expect(decodeJwt(fresh).iat).toBe((decodeJwt(first).iat ?? 0) + 30);
  });

  it('refuses a token it once accepted after the token has expired', async () => {
    const { keys, signer } = await keyPair();
    const verifier = createInternalTokenVerifier(keys.publicJwks, 'cards', { clockSkewSeconds: 0 });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const token = await signer.sign(alice, 'cards');
    await expect(verifier.verify(token)).resolves.toMatchObject({ userId: alice.userId });
    vi.advanceTimersByTime(59_000);
    await expect(verifier.verify(token)).resolves.toMatchObject({ userId: alice.userId });
    vi.advanceTimersByTime(2_000);
    await expect(verifier.verify(token)).rejects.toThrow(/invalid internal token: .*exp/);
  });
});
