// Every gRPC method of every service without an internal token and with a forged, expired, wrong-audience or
// unsigned one: each must be refused before it reaches a handler.
import { randomUUID } from 'node:crypto';
import { createInternalTokenSigner, generateInternalKeys } from '@engram/kit/internal-auth';
import { AiServiceService } from '@engram/proto/ai/v1/ai';
import { BillingServiceService } from '@engram/proto/billing/v1/billing';
import { CardsServiceService } from '@engram/proto/cards/v1/cards';
import { MetricsServiceService } from '@engram/proto/cards/v1/metrics';
import { ReviewServiceService } from '@engram/proto/cards/v1/review';
import { SettingsServiceService } from '@engram/proto/cards/v1/settings';
import { IdentityServiceService } from '@engram/proto/identity/v1/identity';
import { OrganizationsServiceService } from '@engram/proto/organizations/v1/organizations';
import { Client, credentials, Metadata, type ServiceDefinition, status } from '@grpc/grpc-js';
import { importJWK, SignJWT } from 'jose';
import type { AttackTarget, Session } from './session.ts';
import type { Victim } from './victim.ts';

export const SERVICES: [string, ServiceDefinition, 'identity' | 'organizations' | 'cards' | 'billing' | 'ai'][] = [
  ['identity', IdentityServiceService as unknown as ServiceDefinition, 'identity'],
  ['organizations', OrganizationsServiceService as unknown as ServiceDefinition, 'organizations'],
  ['cards', CardsServiceService as unknown as ServiceDefinition, 'cards'],
  ['cards', ReviewServiceService as unknown as ServiceDefinition, 'cards'],
  ['cards', MetricsServiceService as unknown as ServiceDefinition, 'cards'],
  ['cards', SettingsServiceService as unknown as ServiceDefinition, 'cards'],
  ['billing', BillingServiceService as unknown as ServiceDefinition, 'billing'],
  ['ai', AiServiceService as unknown as ServiceDefinition, 'ai'],
];

/** The gRPC status of one call of `method` with `token` (none when undefined). */
export function grpcStatus(
  port: number,
  method: ServiceDefinition[string],
  token: string | undefined,
): Promise<status> {
  const client = new Client(`127.0.0.1:${port}`, credentials.createInsecure());
  const metadata = new Metadata();
  if (token !== undefined) metadata.set('authorization', `Bearer ${token}`);
  const request = method.requestDeserialize(Buffer.alloc(0));
  const deadline = Date.now() + 5_000;
  return new Promise<status>((resolve) => {
    const done = (code: status) => {
      client.close();
      resolve(code);
    };
    if (method.responseStream) {
      const stream = client.makeServerStreamRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        metadata,
        { deadline },
      );
      stream.on('data', () => {});
      stream.on('error', (error: { code: status }) => done(error.code));
      stream.on('end', () => done(status.OK));
    } else {
      client.makeUnaryRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        metadata,
        { deadline },
        (error) => done(error ? (error.code as status) : status.OK),
      );
    }
  });
}

/** Every gRPC method of every service, without a token and with a forged, expired, wrong-audience or unsigned one. */
export async function badInternalTokens(t: Session, target: AttackTarget, victim: Victim): Promise<string[]> {
  const { secrets, ports } = target.settings;
  const privateJwk = JSON.parse(secrets.INTERNAL_TOKEN_PRIVATE_KEY);
  const realKey = await importJWK(privateJwk, 'EdDSA');
  // Another key under the gateway's key id: what someone without the gateway's private key can sign.
  const forger = JSON.parse((await generateInternalKeys(privateJwk.kid)).privateJwk);
  const forgedKey = await importJWK(forger, 'EdDSA');
  const signer = await createInternalTokenSigner(secrets.INTERNAL_TOKEN_PRIVATE_KEY);
  const claims = { kind: 'user', sid: 'session', role: 'admin', org: null };
  const token = (key: typeof realKey, audience: string, issuedAt: number, expires: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: privateJwk.kid })
      .setSubject(victim.id)
      .setIssuer('engram-gateway')
      .setAudience(audience)
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(expires)
      .sign(key);
  const now = Math.floor(Date.now() / 1000);
  const unsigned = (audience: string) =>
    `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ ...claims, sub: victim.id, iss: 'engram-gateway', aud: audience, iat: now, exp: now + 60 }),
    ).toString('base64url')}.`;

  const breaches: string[] = [];
  let methods = 0;
  for (const [audience, definition, component] of SERVICES) {
    const port = ports.grpc[component];
    const otherAudience = audience === 'cards' ? 'billing' : 'cards';
    const badTokens: [string, string | undefined][] = [
      ['no token', undefined],
      ['a garbage token', 'not-a-jwt'],
      ['a forged token', await token(forgedKey, audience, now, now + 60)],
      ['an expired token', await token(realKey, audience, now - 600, now - 300)],
      ['a token issued far in the future', await token(realKey, audience, now + 3600, now + 3660)],
      [
        'a token for another service',
        await signer.sign(
          { userId: victim.id, sessionId: 's', role: 'user', activeOrganizationId: null },
          otherAudience,
        ),
      ],
      ['an unsigned token', unsigned(audience)],
    ];
    for (const method of Object.values(definition)) {
      methods += 1;
      for (const [what, bad] of badTokens) {
        const started = performance.now();
        const code = await grpcStatus(port, method, bad);
        t.times.push(performance.now() - started);
        t.attempts += 1;
        if (code !== status.UNAUTHENTICATED) breaches.push(`${method.path} with ${what}: status ${code}`);
      }
    }
  }
  if (methods < 30) breaches.push(`only ${methods} gRPC methods were found to attack`);
  return breaches;
}
