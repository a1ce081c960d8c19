// Every tRPC procedure called with another user's and another organization's ids: nothing of the victim's may be
// read, changed or leaked.
import { randomUUID } from 'node:crypto';
import { type Json, procedures, type Session, typeOf } from './session.ts';
import { type Attacker, type Victim, victimsView } from './victim.ts';

/**
 * What the attacker sends to each procedure. A procedure that takes no id acts on the caller's own data
 * only: it is still called, and its answer must hold nothing of the victim's.
 */
export const attacksOn = (victim: Victim, attacker: Attacker): Record<string, unknown[]> => ({
  'ai.upload': [],
  'ai.generate': [{ fileId: victim.fileId, count: 1 }],
  // The picture is the caller's own bytes (form data): no one else's id to aim at.
  'ai.proposeOcclusions': [],
  'billing.plans': [undefined],
  'browse.search': [{ query: `nid:${victim.cardId}` }, { query: 'victim-secret' }, { query: '', sort: 'due' }],
  'browse.count': [{ query: `nid:${victim.cardId}` }],
  'browse.bulkEdit': [
    { action: 'delete', cardIds: [victim.cardId] },
    { action: 'add_tags', query: '', tagIds: [victim.tagId] },
    { action: 'set_preset', query: '', presetId: victim.tagPresetId },
  ],
  'browse.undo': [{ undoId: victim.undoId }],
  'browse.savedSearches': [undefined],
  'browse.saveSearch': [],
  'browse.deleteSavedSearch': [{ id: victim.savedSearchId }],
  'browse.duplicates': [undefined],
  'billing.customer': [undefined],
  'billing.checkout': [],
  'billing.checkoutSession': [{ sessionId: victim.checkoutSessionId }],
  'billing.portal': [],
  'cards.list': [{ tagIds: [victim.tagId] }, { query: 'victim-secret' }],
  'cards.create': [
    { front: 'pinned to their tag', back: 'x', tagIds: [victim.tagId] },
    { noteTypeId: victim.noteTypeId, fields: ['of their note type', 'x'] },
  ],
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
  'cards.noteTypes': [undefined],
  'cards.createNoteType': [],
  'cards.updateNoteType': [
    {
      id: victim.noteTypeId,
      type: { name: 'pwned', fields: ['Word', 'Meaning'], templates: [{ name: 'C', front: '{{Word}}', back: '' }] },
    },
  ],
  'cards.deleteNoteType': [{ id: victim.noteTypeId }],
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
export const OWN_DATA_ONLY = new Set([
  'ai.upload',
  'ai.proposeOcclusions',
  'billing.checkout',
  'billing.portal',
  'browse.saveSearch',
  'cards.createTag',
  'cards.createNoteType',
  'media.createUpload',
  'settings.update',
  'settings.completeOnboarding',
]);

/** The victim's secrets in `body` that the attacker did not send themselves (an answer may echo its input). */
export const leaks = (victim: Victim, body: unknown, input?: unknown) =>
  victim.secrets.filter(
    (secret) => secret && JSON.stringify(body).includes(secret) && !(JSON.stringify(input) ?? '').includes(secret),
  );

/** A review done offline a minute ago, as a device syncs it. */
export const offlineReview = (id: string) => ({
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
export const REFUSED_IN_ANSWER: Record<string, (body: Json) => boolean> = {
  'cards.syncReviews': (body) =>
    (body as { result?: { data?: { results?: { status: string }[] } } }).result?.data?.results?.every(
      (result) => result.status === 'conflict',
    ) === true,
};

/** Every procedure with the victim's ids; a procedure missing from the table is a breach of the proof itself. */
export async function anotherUsersIds(t: Session, victim: Victim, attacker: Attacker): Promise<string[]> {
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
