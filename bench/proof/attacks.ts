// The proof's attacks, through the real gateway and every service of a running stack: every tRPC procedure
// called with another user's and another organization's ids, every gRPC method of every service without an
// internal token and with a forged, expired, wrong-audience or unsigned one, every write sent cross-site,
// every procedure with a signed-out and with a revoked session, a banned user with their session and
// their API key, forwarding headers that claim another address, and every procedure's input fuzzed
// (fast-check). The promise: no call succeeds against someone else's data or past a refusal, none answers
// 5xx, and a refused call changes nothing. Each attack is one row of the proof's table.
import { randomBytes, randomUUID } from 'node:crypto';
import { API_KEY_HEADER } from '@engram/contracts/auth-features';
import { appRouter } from '@engram/gateway/router';
import { createInternalTokenSigner, generateInternalKeys } from '@engram/kit/internal-auth';
import type { StackSettings } from '@engram/local/components';
import { AiServiceService } from '@engram/proto/ai/v1/ai';
import { BillingServiceService } from '@engram/proto/billing/v1/billing';
import { CardsServiceService } from '@engram/proto/cards/v1/cards';
import { MetricsServiceService } from '@engram/proto/cards/v1/metrics';
import { ReviewServiceService } from '@engram/proto/cards/v1/review';
import { SettingsServiceService } from '@engram/proto/cards/v1/settings';
import { IdentityServiceService } from '@engram/proto/identity/v1/identity';
import { OrganizationsServiceService } from '@engram/proto/organizations/v1/organizations';
import { authAction, type SignedUp, signedUp } from '@engram/testkit/people';
import { TEST_PASSWORD } from '@engram/testkit/stack';
import { Client, credentials, Metadata, type ServiceDefinition, status } from '@grpc/grpc-js';
import fc from 'fast-check';
import { importJWK, SignJWT } from 'jose';
import { percentile } from '../measure.ts';
import { schemaClient } from './schema-client.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as the web app reads them, by shape
type Json = any;

/** One attack's outcome: how many calls it made, and each one that got through (or answered 5xx). */
export interface AttackResult {
  name: string;
  attempts: number;
  /** Each call that succeeded, leaked, answered 5xx or changed something: none may. */
  breaches: string[];
  p50: number;
  p99: number;
}

/** The stack under attack: its public URL and its settings (internal key, gRPC ports, database). */
export interface AttackTarget {
  url: string;
  settings: StackSettings;
}

/** One tRPC call's answer as the browser gets it: the HTTP status and the body. */
interface Answer {
  status: number;
  body: Json;
}

const suffix = () => randomBytes(4).toString('hex');

export const procedures = () =>
  Object.entries((appRouter as unknown as { _def: { procedures: Record<string, Json> } })._def.procedures).map(
    ([path, procedure]) => ({ path, type: procedure._def.type as 'query' | 'mutation' }),
  );
const typeOf = (path: string) => procedures().find((p) => p.path === path)?.type;

/** The calls of one attack: each one timed and counted. */
class Session {
  readonly url: string;
  attempts = 0;
  times: number[] = [];

  constructor(url: string) {
    this.url = url;
  }

  /** Calls a procedure as the web app would (GET for a query, POST for a mutation), whatever comes back. */
  async send(who: { cookie: string }, path: string, input: unknown, headers: Record<string, string> = {}) {
    const common = { origin: this.url, cookie: who.cookie, ...headers };
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return this.fetch(
      typeOf(path) === 'query'
        ? [`${this.url}/api/trpc/${path}${query}`, { headers: common }]
        : [
            `${this.url}/api/trpc/${path}`,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', ...common },
              body: input === undefined ? undefined : JSON.stringify(input),
            },
          ],
    );
  }

  /** Any HTTP request of the attack, timed and counted; the body parsed when it is JSON. */
  async fetch([url, init]: [string, RequestInit]): Promise<Answer> {
    const started = performance.now();
    const response = await fetch(url, init);
    const text = await response.text();
    this.times.push(performance.now() - started);
    this.attempts += 1;
    let body: Json;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: response.status, body };
  }

  /** A call that must succeed (setting the scene, not attacking): its data. */
  async call(who: { cookie: string }, path: string, input?: unknown): Promise<Json> {
    const answer = await this.send(who, path, input);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.result.data;
  }

  person = (label: string) => signedUp(this.url, label);

  /** better-auth's organization endpoints as the web app calls them. */
  organization = (who: { cookie: string }, path: string, body: unknown) =>
    authAction(this.url, who, `organization/${path}`, body);

  result(name: string, breaches: string[]): AttackResult {
    const sorted = [...this.times].sort((a, b) => a - b).map((ms) => ({ at: 0, ms }));
    return { name, attempts: this.attempts, breaches, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  }
}

// ---------------------------------------------------------------------------------------------------------
// The victim: a learner active in every service, whose every id the attacker knows

interface Victim extends SignedUp {
  secrets: string[];
  cardId: string;
  dueItemId: string;
  reviewId: string;
  tagId: string;
  orgId: string;
  teamId: string;
  deckId: string;
  assignmentId: string;
  fileId: string;
  checkoutSessionId: string;
  mediaId: string;
  uploadId: string;
  importId: string;
  importUploadId: string;
  exportId: string;
  presetId: string;
  /** A preset of theirs for the cards of their tag. */
  tagPresetId: string;
  optimizationId: string;
}

interface Attacker extends SignedUp {
  orgId: string;
  tagId: string;
  /** An item of the attacker's own card. */
  dueItemId: string;
}

async function victimActiveEverywhere(t: Session): Promise<Victim> {
  const me = await t.person('victim');
  const secret = `victim-secret-${suffix()}`;
  const tag = await t.call(me, 'cards.createTag', { name: `${secret}-tag` });
  const card = await t.call(me, 'cards.create', { front: `${secret} front`, back: `${secret} back`, tagIds: [tag.id] });
  await t.call(me, 'cards.create', { front: `${secret} second`, back: 'kept', tagIds: [tag.id] });
  const due = await t.call(me, 'cards.listDue', {});
  const reviewed = due.items[0].id;
  const reviewId = randomUUID();
  await t.call(me, 'cards.review', { id: reviewed, rating: 'good', reviewId, durationMs: 1200 });
  const dueItemId = due.items[1].id;
  const org = await t.organization(me, 'create', { name: `${secret} school`, slug: `victim-${suffix()}` });
  const team = await t.organization(me, 'create-team', { name: `${secret} team`, organizationId: org.id });
  const deck = await t.call(me, 'orgs.publishDeck', { organizationId: org.id, name: `${secret} deck`, tagId: tag.id });
  const assignment = await t.call(me, 'orgs.createAssignment', {
    organizationId: org.id,
    deckId: deck.id,
    dueAt: new Date(Date.now() + 86_400_000).toISOString(),
    targetKind: 'cards_learned',
    targetValue: 2,
  });
  const form = new FormData();
  form.append(
    'file',
    new File([`${secret} notes about the cell and its parts, long enough`], 'n.md', { type: 'text/markdown' }),
  );
  const uploaded = await fetch(`${t.url}/api/trpc/ai.upload`, {
    method: 'POST',
    headers: { origin: t.url, cookie: me.cookie },
    body: form,
  });
  const fileId = ((await uploaded.json()) as Json).result.data.fileId;
  const { url } = await t.call(me, 'billing.checkout', { plan: 'plus', interval: 'month', currency: 'usd' });
  const checkoutSessionId = /cs_test_\w+/.exec(url)?.[0] ?? '';
  /** Sends `bytes` to the store as the web app does: a slot, then the PUT; the upload's id. */
  const send = async (name: string, contentType: string, purpose: 'card' | 'import', bytes: Buffer) => {
    const slot = await t.call(me, 'media.createUpload', { name, size: bytes.length, contentType, purpose });
    await fetch(slot.url, { method: 'PUT', headers: slot.headers, body: bytes });
    return slot.uploadId as string;
  };
  // A picture kept for a card, and an upload not kept yet.
  const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
  const sendPicture = () => send(`${secret}.gif`, 'image/gif', 'card', gif);
  const media = await t.call(me, 'media.finishUpload', { uploadId: await sendPicture() });
  const uploadId = await sendPicture();
  // A CSV imported to the end (so their view stays still), and one sent but not imported yet.
  const sendCsv = () =>
    send(`${secret}.csv`, 'text/csv', 'import', Buffer.from(`front,back\n${secret} imported,answer\n`));
  const { importId } = await t.call(me, 'imports.start', { uploadId: await sendCsv() });
  for (let tries = 0; (await t.call(me, 'imports.get', { importId })).status !== 'done'; tries++) {
    if (tries > 100) throw new Error("the victim's import did not finish");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const importUploadId = await sendCsv();
  const { exportId } = await t.call(me, 'exports.start', { format: 'csv', tagIds: [tag.id] });
  for (let tries = 0; (await t.call(me, 'exports.get', { exportId })).status !== 'done'; tries++) {
    if (tries > 100) throw new Error("the victim's export did not finish");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Their default preset, fitted to their (few) reviews.
  const { jobId: optimizationId } = await t.call(me, 'settings.optimize', {});
  for (
    let tries = 0;
    (await t.call(me, 'settings.optimization', { jobId: optimizationId })).status !== 'done';
    tries++
  ) {
    if (tries > 100) throw new Error("the victim's optimization did not finish");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const presetId = (await t.call(me, 'settings.get', undefined)).presets[0].id as string;
  const tagPreset = await t.call(me, 'settings.createPreset', { name: `${secret} preset`, tagIds: [tag.id] });
  return {
    ...me,
    secrets: [
      secret,
      me.email,
      card.id,
      tag.id,
      deck.id,
      assignment.id,
      fileId,
      checkoutSessionId,
      reviewId,
      media.id,
      uploadId,
      importId,
      importUploadId,
      exportId,
      presetId,
      tagPreset.id,
      optimizationId,
    ],
    cardId: card.id,
    dueItemId,
    reviewId,
    tagId: tag.id,
    orgId: org.id,
    teamId: team.id,
    deckId: deck.id,
    assignmentId: assignment.id,
    fileId,
    checkoutSessionId,
    mediaId: media.id,
    uploadId,
    importId,
    importUploadId,
    exportId,
    presetId,
    tagPresetId: tagPreset.id,
    optimizationId,
  };
}

/** Everything the victim sees of their own data; an attack that changed any of it changed their data. */
async function victimsView(t: Session, victim: Victim): Promise<Json> {
  const views: [string, unknown][] = [
    ['cards.list', { pageSize: 100, archived: false }],
    ['cards.list', { pageSize: 100, archived: true }],
    ['cards.listTags', { pageSize: 100 }],
    ['cards.listDue', {}],
    ['cards.reviewMetrics', undefined],
    ['settings.get', undefined],
    ['orgs.decks', { organizationId: victim.orgId }],
    ['orgs.assignments', { organizationId: victim.orgId }],
    ['orgs.progress', { organizationId: victim.orgId }],
    ['billing.customer', undefined],
    ['media.list', undefined],
    ['imports.list', undefined],
    ['exports.list', undefined],
  ];
  const seen: Json[] = [];
  for (const [path, input] of views) seen.push((await t.send(victim, path, input)).body);
  return JSON.parse(withoutClock(seen));
}

/**
 * A view as text without what moves with the clock alone: a due item's next intervals are computed for
 * "now", and an export's download link is signed for now, so the same data answers other values a moment later.
 */
const withoutClock = (view: unknown) =>
  JSON.stringify(view, (key, value) => (key === 'nextIntervals' || key === 'url' ? undefined : value));

// ---------------------------------------------------------------------------------------------------------
// The attacks

/**
 * What the attacker sends to each procedure. A procedure that takes no id acts on the caller's own data
 * only: it is still called, and its answer must hold nothing of the victim's.
 */
const attacksOn = (victim: Victim, attacker: Attacker): Record<string, unknown[]> => ({
  'ai.upload': [],
  'ai.generate': [{ fileId: victim.fileId, count: 1 }],
  'billing.plans': [undefined],
  'billing.customer': [undefined],
  'billing.checkout': [],
  'billing.checkoutSession': [{ sessionId: victim.checkoutSessionId }],
  'billing.portal': [],
  'cards.list': [{ tagIds: [victim.tagId] }, { query: 'victim-secret' }],
  'cards.create': [{ front: 'pinned to their tag', back: 'x', tagIds: [victim.tagId] }],
  'cards.createMany': [{ cards: [{ front: 'pinned', back: 'x', tagIds: [victim.tagId] }] }],
  'cards.update': [
    { id: victim.cardId, front: 'pwned' },
    { id: victim.cardId, tagIds: [attacker.tagId] },
  ],
  'cards.archive': [{ id: victim.cardId, archived: true }],
  'cards.delete': [{ id: victim.cardId }],
  'cards.listTags': [{}],
  'cards.createTag': [],
  'cards.renameTag': [{ id: victim.tagId, name: 'pwned' }],
  'cards.deleteTag': [{ id: victim.tagId }],
  'cards.listDue': [{ tagIds: [victim.tagId] }],
  'cards.review': [{ id: victim.dueItemId, rating: 'easy', reviewId: randomUUID(), durationMs: 1000 }],
  'cards.undoReview': [{ reviewId: victim.reviewId }],
  'cards.syncReviews': [
    { reviews: [{ ...offlineReview(victim.dueItemId), rating: 'easy' }] },
    // The victim's review id on the attacker's own item: refused, never a way to read or redo theirs.
    { reviews: [{ ...offlineReview(attacker.dueItemId), reviewId: victim.reviewId }] },
  ],
  'cards.offlineSet': [{ horizonDays: 14 }],
  'cards.progressMetrics': [undefined],
  'cards.streak': [undefined],
  'cards.reviewMetrics': [undefined],
  'cards.generationUsage': [undefined],
  'orgs.decks': [{ organizationId: victim.orgId }],
  'orgs.publishDeck': [
    { organizationId: victim.orgId, name: 'planted', tagId: attacker.tagId },
    { organizationId: attacker.orgId, name: 'stolen', tagId: victim.tagId },
    { organizationId: attacker.orgId, teamId: victim.teamId, name: 'stolen', tagId: attacker.tagId },
  ],
  'orgs.syncDeck': [{ deckId: victim.deckId }],
  'orgs.deleteDeck': [{ deckId: victim.deckId }],
  'orgs.subscribe': [{ deckId: victim.deckId }],
  'orgs.unsubscribe': [{ deckId: victim.deckId }],
  'orgs.assignments': [{ organizationId: victim.orgId }, undefined],
  'orgs.createAssignment': [
    {
      organizationId: victim.orgId,
      deckId: victim.deckId,
      dueAt: new Date(Date.now() + 86_400_000).toISOString(),
      targetKind: 'retention',
      targetValue: 0.9,
    },
    {
      organizationId: attacker.orgId,
      deckId: victim.deckId,
      dueAt: new Date(Date.now() + 86_400_000).toISOString(),
      targetKind: 'retention',
      targetValue: 0.9,
    },
  ],
  'orgs.deleteAssignment': [{ assignmentId: victim.assignmentId }],
  'orgs.progress': [
    { organizationId: victim.orgId },
    { organizationId: victim.orgId, assignmentId: victim.assignmentId },
    { organizationId: attacker.orgId, assignmentId: victim.assignmentId },
  ],
  'media.createUpload': [],
  'media.finishUpload': [{ uploadId: victim.uploadId }],
  'media.list': [undefined],
  'media.delete': [{ id: victim.mediaId }],
  'imports.preview': [{ uploadId: victim.importUploadId }],
  'imports.start': [{ uploadId: victim.importUploadId }],
  'imports.get': [{ importId: victim.importId }],
  'imports.list': [undefined],
  'exports.start': [{ format: 'csv', tagIds: [victim.tagId] }],
  'exports.get': [{ exportId: victim.exportId }],
  'exports.list': [undefined],
  'settings.get': [undefined],
  'settings.getTimezone': [undefined],
  'settings.update': [],
  'settings.completeOnboarding': [],
  'settings.optimize': [{ presetId: victim.presetId }, { presetId: victim.presetId, excludeDeletedCards: true }],
  'settings.optimization': [{ jobId: victim.optimizationId }],
  'settings.simulate': [{ presetId: victim.presetId, desiredRetentions: [0.9], days: 30 }],
  'settings.recommendRetention': [{ presetId: victim.presetId }],
  'settings.createPreset': [{ name: 'Taken', tagIds: [victim.tagId] }],
  'settings.updatePreset': [
    { presetId: victim.tagPresetId, name: 'Taken' },
    { presetId: victim.presetId, desiredRetention: 0.7 },
    { presetId: victim.tagPresetId, tagIds: [] },
  ],
  'settings.deletePreset': [{ presetId: victim.tagPresetId }],
  'settings.previewReschedule': [{ presetId: victim.presetId }, { presetId: victim.tagPresetId }],
  'settings.reschedule': [{ presetId: victim.presetId }, { presetId: victim.tagPresetId }],
});

/** Procedures that only ever act for the caller and take no one else's id: nothing to aim at the victim. */
const OWN_DATA_ONLY = new Set([
  'ai.upload',
  'billing.checkout',
  'billing.portal',
  'cards.createTag',
  'media.createUpload',
  'settings.update',
  'settings.completeOnboarding',
]);

/** The victim's secrets in `body` that the attacker did not send themselves (an answer may echo its input). */
const leaks = (victim: Victim, body: unknown, input?: unknown) =>
  victim.secrets.filter(
    (secret) => secret && JSON.stringify(body).includes(secret) && !(JSON.stringify(input) ?? '').includes(secret),
  );

/** A review done offline a minute ago, as a device syncs it. */
const offlineReview = (id: string) => ({
  reviewId: randomUUID(),
  id,
  rating: 'good',
  durationMs: 1000,
  reviewedAt: new Date(Date.now() - 60_000).toISOString(),
});

/**
 * Mutations that answer each part of a batch on its own: the call succeeds (200) and says in its answer which
 * parts it refused. An attack on one of them is refused when every part is.
 */
const REFUSED_IN_ANSWER: Record<string, (body: Json) => boolean> = {
  'cards.syncReviews': (body) =>
    (body as { result?: { data?: { results?: { status: string }[] } } }).result?.data?.results?.every(
      (result) => result.status === 'conflict',
    ) === true,
};

/** Every procedure with the victim's ids; a procedure missing from the table is a breach of the proof itself. */
async function anotherUsersIds(t: Session, victim: Victim, attacker: Attacker): Promise<string[]> {
  const table = attacksOn(victim, attacker);
  const breaches: string[] = [];
  for (const { path } of procedures()) {
    if (!(path in table)) breaches.push(`${path} is missing from the attacks' table`);
    else if ((table[path] ?? []).length === 0 && !OWN_DATA_ONLY.has(path)) breaches.push(`no attack for ${path}`);
  }
  const before = await victimsView(t, victim);
  for (const [path, inputs] of Object.entries(table)) {
    for (const input of inputs) {
      const answer = await t.send(attacker, path, input);
      const what = `${path} ${JSON.stringify(input) ?? ''}`;
      if (answer.status >= 500) breaches.push(`${what}: answered ${answer.status}`);
      else if (leaks(victim, answer.body, input).length > 0)
        breaches.push(`${what}: leaked ${leaks(victim, answer.body, input).join(', ')}`);
      else if (typeOf(path) === 'mutation' && answer.status === 200 && !REFUSED_IN_ANSWER[path]?.(answer.body))
        breaches.push(`${what}: succeeded`);
    }
  }
  if (JSON.stringify(await victimsView(t, victim)) !== JSON.stringify(before))
    breaches.push("the victim's data changed");
  return breaches;
}

// The gRPC services and the audience each one accepts.
const SERVICES: [string, ServiceDefinition, 'identity' | 'organizations' | 'cards' | 'billing' | 'ai'][] = [
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
function grpcStatus(port: number, method: ServiceDefinition[string], token: string | undefined): Promise<status> {
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
async function badInternalTokens(t: Session, target: AttackTarget, victim: Victim): Promise<string[]> {
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

const CROSS_SITE: [string, Record<string, string>][] = [
  ['a foreign Origin', { origin: 'https://evil.example' }],
  ['no Origin but Sec-Fetch-Site: cross-site', { origin: '', 'sec-fetch-site': 'cross-site' }],
  ['no Origin but a foreign Referer', { origin: '', referer: 'https://evil.example/page' }],
];

/** Every mutation and the account endpoints that matter, sent from another site with the victim's cookie. */
async function crossSiteWrites(t: Session, victim: Victim, attacker: Attacker): Promise<string[]> {
  const before = await victimsView(t, victim);
  const breaches: string[] = [];
  const table = attacksOn(victim, attacker);
  for (const [what, headers] of CROSS_SITE) {
    for (const { path } of procedures().filter((p) => p.type === 'mutation')) {
      const answer = await t.send(victim, path, table[path]?.[0] ?? {}, headers);
      if (answer.status !== 403) breaches.push(`${path} with ${what}: ${answer.status}`);
    }
    for (const path of ['update-user', 'delete-user', 'organization/create', 'api-key/create', 'change-email']) {
      const answer = await t.fetch([
        `${t.url}/api/auth/${path}`,
        {
          method: 'POST',
          headers: { 'content-type': 'text/plain', cookie: victim.cookie, ...headers },
          body: JSON.stringify({ name: 'pwned', slug: `pwned-${suffix()}`, newEmail: 'pwned@example.com' }),
        },
      ]);
      if (answer.status !== 403) breaches.push(`/api/auth/${path} with ${what}: ${answer.status}`);
    }
  }
  if (JSON.stringify(await victimsView(t, victim)) !== JSON.stringify(before))
    breaches.push("the victim's data changed");
  return breaches;
}

/** Signs `email` in again: a second session (another device); returns its Cookie header. */
async function signIn(t: Session, email: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${t.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: t.url, ...headers },
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** Every procedure that needs a user, called with a session that was signed out and one revoked from another device. */
async function endedSessions(t: Session, attacker: Attacker): Promise<string[]> {
  const leaver = await t.person('leaver');
  const revoked = { cookie: await signIn(t, leaver.email) };
  await authAction(t.url, leaver, 'revoke-other-sessions', {});
  await authAction(t.url, leaver, 'sign-out', {});
  const table = attacksOn({ secrets: [] } as unknown as Victim, attacker);
  const breaches: string[] = [];
  for (const [what, who] of [
    ['signed out', leaver],
    ['revoked from another device', revoked],
  ] as const) {
    for (const { path } of procedures()) {
      if (path === 'billing.plans') continue; // the catalogue is public
      const answer = await t.send(who, path, table[path]?.[0] ?? {});
      if (answer.status !== 401) breaches.push(`${path} with a session ${what}: ${answer.status}`);
    }
  }
  return breaches;
}

/**
 * A banned user, with the session a ban keeps and with an API key made before the ban: every procedure
 * and every account endpoint but reading the session and signing out is refused, and nothing changes.
 */
async function bannedUser(t: Session, target: AttackTarget, attacker: Attacker): Promise<string[]> {
  const admin = await t.person('admin');
  const identity = await schemaClient(target.settings.databaseUrl, 'identity');
  try {
    await identity.query(`update users set role = 'admin' where id = $1`, [admin.id]);
  } finally {
    await identity.end();
  }
  const adminSession = { cookie: await signIn(t, admin.email) };
  const banned = await t.person('banned');
  await t.call(banned, 'cards.create', { front: 'before the ban', back: 'kept' });
  const { key } = await authAction(t.url, banned, 'api-key/create', { name: 'script' });
  await authAction(t.url, adminSession, 'admin/ban-user', { userId: banned.id, banReason: 'abuse' });

  const own = () => storedOf(target, banned.id);
  const before = await own();
  const table = attacksOn({ secrets: [] } as unknown as Victim, attacker);
  const breaches: string[] = [];
  for (const [what, headers] of [
    ['their session', { cookie: banned.cookie }],
    ['their API key', { [API_KEY_HEADER]: key as string }],
  ] as const) {
    for (const { path } of procedures()) {
      if (path === 'billing.plans') continue; // the catalogue is public
      const answer = await t.send({ cookie: '' }, path, table[path]?.[0] ?? {}, headers);
      if (answer.status !== 403 && answer.status !== 401) breaches.push(`${path} with ${what}: ${answer.status}`);
    }
    for (const [path, body] of [
      ['update-user', { name: 'renamed while banned' }],
      ['organization/create', { name: 'Spam Inc', slug: `spam-${suffix()}` }],
      ['api-key/create', { name: 'another' }],
      ['change-email', { newEmail: `elsewhere-${suffix()}@example.com` }],
    ] as const) {
      const answer = await t.fetch([
        `${t.url}/api/auth/${path}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: t.url, ...headers },
          body: JSON.stringify(body),
        },
      ]);
      if (answer.body?.code !== 'BANNED_USER') breaches.push(`/api/auth/${path} with ${what}: ${answer.status}`);
    }
  }
  if ((await own()) !== before) breaches.push("the banned user's data changed");
  return breaches;
}

/** What the services store of `userId` (their name and email, keys, memberships, cards), as text to compare. */
async function storedOf(target: AttackTarget, userId: string): Promise<string> {
  const identity = await schemaClient(target.settings.databaseUrl, 'identity');
  const cards = await schemaClient(target.settings.databaseUrl, 'cards');
  try {
    const rows = [
      await identity.query('select name, email, image from users where id = $1', [userId]),
      await identity.query('select count(*) from api_keys where reference_id = $1', [userId]),
      await identity.query('select count(*) from members where user_id = $1', [userId]),
      await cards.query('select front, back, archived from cards where owner_id = $1 order by id', [userId]),
    ];
    return JSON.stringify(rows.map((result) => result.rows));
  } finally {
    await Promise.all([identity.end(), cards.end()]);
  }
}

/** The addresses identity recorded for `who`'s sessions (what its limits and the session list see). */
async function sessionAddresses(t: Session, who: { cookie: string }): Promise<string[]> {
  const answer = await t.fetch([`${t.url}/api/auth/list-sessions`, { headers: { cookie: who.cookie } }]);
  return (answer.body as { ipAddress: string | null }[]).map((session) => session.ipAddress ?? '');
}

/**
 * Sign-ins and calls that claim another address in X-Forwarded-For, X-Real-IP and Forwarded: the
 * gateway trusts no proxy here, so every limit and every record keeps the address it sees.
 */
async function forwardingHeaders(t: Session): Promise<string[]> {
  const claimed = ['203.0.113.7', '198.51.100.9', '192.0.2.44'];
  const headers = {
    'x-forwarded-for': claimed[0] as string,
    'x-real-ip': claimed[1] as string,
    forwarded: `for=${claimed[2]}`,
  };
  const someone = await t.person('forwarder');
  const claiming = { cookie: await signIn(t, someone.email, headers) };
  await t.send(claiming, 'cards.list', { pageSize: 10, archived: false }, headers);
  const breaches: string[] = [];
  for (const address of await sessionAddresses(t, claiming)) {
    if (claimed.some((ip) => address.includes(ip))) breaches.push(`a session was recorded from the claimed ${address}`);
  }
  return breaches;
}

/** Values a careless or hostile client sends where a field is expected. */
const hostile = fc.oneof(
  fc.jsonValue(),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '../../etc/passwd',
    "' OR 1=1 --",
    '{{c0::}}',
    '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
    'x'.repeat(20_000),
    -1,
    0,
    1e308,
    Number.MAX_SAFE_INTEGER + 2,
    -0,
    true,
    null,
    [],
    {},
  ),
);

/** A well-formed input of each procedure, from which the fuzzer replaces one field at a time. */
const wellFormed = (): Record<string, Record<string, unknown>> => ({
  'ai.generate': { notes: 'The mitochondrion makes energy for the cell in many steps.', count: 1 },
  'billing.checkout': { plan: 'plus', interval: 'month', currency: 'eur' },
  'billing.checkoutSession': { sessionId: 'cs_test_nothing' },
  'cards.list': { pageSize: 10, archived: false, cursor: null },
  'cards.create': { front: 'fuzz front', back: 'fuzz back', type: 'basic' },
  'cards.createMany': { cards: [{ front: 'a', back: 'b' }] },
  'cards.update': { id: randomUUID(), front: 'changed' },
  'cards.archive': { id: randomUUID(), archived: true },
  'cards.delete': { id: randomUUID() },
  'cards.listTags': { pageSize: 10 },
  'cards.createTag': { name: 'fuzzed' },
  'media.createUpload': { name: 'a.png', size: 10, contentType: 'image/png', purpose: 'card' },
  'media.finishUpload': { uploadId: randomUUID() },
  'media.delete': { id: randomUUID() },
  'imports.preview': { uploadId: randomUUID() },
  'imports.start': { uploadId: randomUUID(), format: 'csv', mapping: { front: 0, back: 1 } },
  'imports.get': { importId: randomUUID() },
  'exports.start': { format: 'csv', tagIds: [randomUUID()] },
  'exports.get': { exportId: randomUUID() },
  'cards.renameTag': { id: randomUUID(), name: 'renamed' },
  'cards.deleteTag': { id: randomUUID() },
  'cards.listDue': { tagIds: [] },
  'cards.review': { id: randomUUID(), rating: 'good', reviewId: randomUUID(), durationMs: 100 },
  'cards.undoReview': { reviewId: randomUUID() },
  'cards.syncReviews': { reviews: [offlineReview(randomUUID())] },
  'cards.offlineSet': { horizonDays: 3 },
  'orgs.decks': { organizationId: 'org' },
  'orgs.publishDeck': { organizationId: 'org', name: 'deck', tagId: 'tag' },
  'orgs.syncDeck': { deckId: 'deck' },
  'orgs.deleteDeck': { deckId: 'deck' },
  'orgs.subscribe': { deckId: 'deck' },
  'orgs.unsubscribe': { deckId: 'deck' },
  'orgs.assignments': { organizationId: 'org' },
  'orgs.createAssignment': {
    organizationId: 'org',
    deckId: 'deck',
    dueAt: new Date(Date.now() + 86_400_000).toISOString(),
    targetKind: 'retention',
    targetValue: 0.9,
  },
  'orgs.deleteAssignment': { assignmentId: 'a' },
  'orgs.progress': { organizationId: 'org' },
  'settings.update': { dailyGoal: 20 },
  'settings.completeOnboarding': { timezone: 'Europe/Lisbon' },
  'settings.optimize': { presetId: randomUUID(), excludeDeletedCards: false },
  'settings.optimization': { jobId: randomUUID() },
  'settings.simulate': { desiredRetentions: [0.9], days: 30 },
  'settings.recommendRetention': { presetId: randomUUID() },
  'settings.createPreset': { name: 'Preset', tagIds: [randomUUID()], desiredRetention: 0.9, newPerDay: 20 },
  'settings.updatePreset': { presetId: randomUUID(), name: 'Preset', reviewsPerDay: 100 },
  'settings.deletePreset': { presetId: randomUUID() },
  'settings.previewReschedule': { presetId: randomUUID() },
  'settings.reschedule': { presetId: randomUUID() },
});

/** An input for `path`: anything at all, or a well-formed one with one field replaced. */
const fuzzedInputOf = (path: string) => {
  const base = wellFormed()[path];
  if (!base) return fc.oneof(fc.constant(undefined), hostile);
  return fc.oneof(
    hostile,
    fc
      .tuple(fc.constantFrom(...Object.keys(base), 'unexpected'), hostile)
      .map(([key, value]) => ({ ...base, [key]: value })),
  );
};

/** The fuzzer's own data as it sees it: a refused call must leave it as it was. */
async function ownView(t: Session, who: SignedUp): Promise<string> {
  const paths = ['cards.list', 'cards.listTags', 'settings.get', 'cards.listDue', 'orgs.assignments'];
  const inputs = { 0: { pageSize: 100, archived: false, cursor: null }, 1: { pageSize: 100 } };
  const response = await fetch(
    `${t.url}/api/trpc/${paths.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`,
    { headers: { cookie: who.cookie } },
  );
  return withoutClock(JSON.parse(await response.text()));
}

/** Every procedure's input fuzzed: nothing answers 5xx, and a refused call changes nothing. */
async function fuzzedInput(t: Session, runs: number): Promise<string[]> {
  const fuzzer = await t.person('fuzzer');
  await t.call(fuzzer, 'cards.create', { front: 'mine', back: 'kept' });
  const breaches: string[] = [];
  const statuses = new Map<number, number>();
  for (const { path } of procedures()) {
    if (path === 'ai.upload') continue; // its body is a file: fuzzed below
    await fc.assert(
      fc.asyncProperty(fuzzedInputOf(path), async (input) => {
        const before = await ownView(t, fuzzer);
        const answer = await t.send(fuzzer, path, input);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const what = `${path} ${JSON.stringify(input)?.slice(0, 200)}`;
        if (answer.status >= 500)
          breaches.push(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
        if (answer.status >= 400 && answer.status < 500 && (await ownView(t, fuzzer)) !== before)
          breaches.push(`${what}: refused with ${answer.status}, yet changed the user's data`);
      }),
      { numRuns: runs, seed: 24 },
    );
  }
  for (const body of [
    randomBytes(512),
    '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n\u0000\r\n--x--',
    'not a form',
  ]) {
    const answer = await t.fetch([
      `${t.url}/api/trpc/ai.upload`,
      {
        method: 'POST',
        headers: { origin: t.url, cookie: fuzzer.cookie, 'content-type': 'multipart/form-data; boundary=x' },
        body,
      },
    ]);
    if (answer.status >= 500) breaches.push(`ai.upload with a broken form: ${answer.status}`);
  }
  // The inputs reached the procedures: most were refused as invalid, some went through.
  if ((statuses.get(400) ?? 0) < procedures().length)
    breaches.push('the fuzzer was hardly ever refused: is it reaching the procedures?');
  if ((statuses.get(200) ?? 0) < 10) breaches.push('the fuzzer never got through: is it signed in?');
  return breaches;
}

export const ATTACKS = [
  "another user's and organization's ids, every procedure",
  'every gRPC method without a valid internal token',
  'writes sent from another site',
  'signed-out and revoked sessions',
  'a banned user, by session and by API key',
  'forwarding headers that claim another address',
  'fuzzed input to every procedure',
] as const;

/**
 * Runs every attack against `target` and returns one result per attack, in ATTACKS' order. `fuzzRuns` is
 * how many inputs the fuzzer tries per procedure.
 */
export async function runAttacks(target: AttackTarget, fuzzRuns = 12): Promise<AttackResult[]> {
  const setup = new Session(target.url);
  const victim = await victimActiveEverywhere(setup);
  const me = await setup.person('attacker');
  const org = await setup.organization(me, 'create', { name: 'Intruders', slug: `intruders-${suffix()}` });
  const tag = await setup.call(me, 'cards.createTag', { name: 'intruder tag' });
  await setup.call(me, 'cards.create', { front: 'intruder card', back: 'x' });
  const [own] = (await setup.call(me, 'cards.listDue', {})).items;
  const attacker: Attacker = { ...me, orgId: org.id, tagId: tag.id, dueItemId: own.id };
  const attacks: [string, (t: Session) => Promise<string[]>][] = [
    [ATTACKS[0], (t) => anotherUsersIds(t, victim, attacker)],
    [ATTACKS[1], (t) => badInternalTokens(t, target, victim)],
    [ATTACKS[2], (t) => crossSiteWrites(t, victim, attacker)],
    [ATTACKS[3], (t) => endedSessions(t, attacker)],
    [ATTACKS[4], (t) => bannedUser(t, target, attacker)],
    [ATTACKS[5], (t) => forwardingHeaders(t)],
    [ATTACKS[6], (t) => fuzzedInput(t, fuzzRuns)],
  ];
  const results: AttackResult[] = [];
  for (const [name, attack] of attacks) {
    const t = new Session(target.url);
    const breaches = await attack(t).catch((error: Error) => [`the attack could not be run: ${error.message}`]);
    results.push(t.result(name, breaches));
  }
  return results;
}
