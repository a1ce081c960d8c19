// Every procedure's input fuzzed (fast-check): nothing answers 5xx, and a refused call changes nothing.
import { randomBytes, randomUUID } from 'node:crypto';
import type { SignedUp } from '@engram/testkit/people';
import fc from 'fast-check';
import { offlineReview } from './other-users-ids.ts';
import { procedures, type Session } from './session.ts';
import { withoutClock } from './victim.ts';

/** Values a careless or hostile client sends where a field is expected. */
export const hostile = fc.oneof(
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
export const wellFormed = (): Record<string, Record<string, unknown>> => ({
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
  'cards.createNoteType': {
    name: 'Fuzzed words',
    fields: ['Word', 'Meaning'],
    templates: [{ name: 'Recognise', front: '{{Word}}', back: '{{Meaning}}' }],
  },
  'cards.updateNoteType': {
    id: randomUUID(),
    type: { name: 'Fuzzed', fields: ['Word'], templates: [{ name: 'C', front: '{{Word}}', back: '' }] },
  },
  'cards.deleteNoteType': { id: randomUUID() },
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
export const fuzzedInputOf = (path: string) => {
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
export async function ownView(t: Session, who: SignedUp): Promise<string> {
  const paths = ['cards.list', 'cards.listTags', 'settings.get', 'cards.listDue', 'orgs.assignments'];
  const inputs = { 0: { pageSize: 100, archived: false, cursor: null }, 1: { pageSize: 100 } };
  const response = await fetch(
    `${t.url}/api/trpc/${paths.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`,
    { headers: { cookie: who.cookie } },
  );
  return withoutClock(JSON.parse(await response.text()));
}

/** Every procedure's input fuzzed: nothing answers 5xx, and a refused call changes nothing. */
export async function fuzzedInput(t: Session, runs: number): Promise<string[]> {
  const fuzzer = await t.person('fuzzer');
  await t.call(fuzzer, 'cards.create', { front: 'mine', back: 'kept' });
  const breaches: string[] = [];
  const statuses = new Map<number, number>();
  for (const { path } of procedures()) {
    if (path === 'ai.upload' || path === 'ai.proposeOcclusions') continue; // their bodies are files: fuzzed below
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
  for (const path of ['ai.upload', 'ai.proposeOcclusions']) {
    const field = path === 'ai.upload' ? 'file' : 'picture';
    for (const body of [
      randomBytes(512),
      `--x\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n\u0000\r\n--x--`,
      `--x\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG\r\n\u001a\n\u0000\u0000\r\n--x--`,
      'not a form',
    ]) {
      const answer = await t.fetch([
        `${t.url}/api/trpc/${path}`,
        {
          method: 'POST',
          headers: { origin: t.url, cookie: fuzzer.cookie, 'content-type': 'multipart/form-data; boundary=x' },
          body,
        },
      ]);
      if (answer.status >= 500) breaches.push(`${path} with a broken form: ${answer.status}`);
    }
  }
  // The inputs reached the procedures: most were refused as invalid, some went through.
  if ((statuses.get(400) ?? 0) < procedures().length)
    breaches.push('the fuzzer was hardly ever refused: is it reaching the procedures?');
  if ((statuses.get(200) ?? 0) < 10) breaches.push('the fuzzer never got through: is it signed in?');
  return breaches;
}
