// The victim: a learner active in every service, whose every id the attacker knows, and what they see of their own
// data (an attack that changed any of it changed their data).
import { randomUUID } from 'node:crypto';
import type { SignedUp } from '@engram/testkit/people';
import { type Json, type Session, suffix } from './session.ts';

export interface Victim extends SignedUp {
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
  /** A bulk edit of theirs (a tag added to their card), which Browse could undo. */
  undoId: string;
  savedSearchId: string;
  /** A note type of theirs, with a note of it. */
  noteTypeId: string;
}

export interface Attacker extends SignedUp {
  orgId: string;
  tagId: string;
  /** An item of the attacker's own card. */
  dueItemId: string;
}

export async function victimActiveEverywhere(t: Session): Promise<Victim> {
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
  const extra = await t.call(me, 'cards.createTag', { name: `${secret}-extra` });
  const { undoId } = await t.call(me, 'browse.bulkEdit', {
    action: 'add_tags',
    cardIds: [card.id],
    tagIds: [extra.id],
  });
  const saved = await t.call(me, 'browse.saveSearch', { name: `${secret} search`, query: `tag:${secret}-tag` });
  const noteType = await t.call(me, 'cards.createNoteType', {
    name: `${secret} words`,
    fields: ['Word', 'Meaning'],
    templates: [{ name: 'Recognise', front: '{{Word}}', back: '{{Meaning}}' }],
  });
  await t.call(me, 'cards.create', { noteTypeId: noteType.id, fields: [`${secret} word`, 'meaning'] });
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
      undoId,
      saved.id,
      noteType.id,
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
    undoId,
    savedSearchId: saved.id,
    noteTypeId: noteType.id,
  };
}

/** Everything the victim sees of their own data; an attack that changed any of it changed their data. */
export async function victimsView(t: Session, victim: Victim): Promise<Json> {
  const views: [string, unknown][] = [
    ['cards.list', { pageSize: 100, archived: false }],
    ['cards.list', { pageSize: 100, archived: true }],
    ['cards.listTags', { pageSize: 100 }],
    ['cards.noteTypes', undefined],
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
    ['browse.savedSearches', undefined],
    ['browse.search', { query: '' }],
  ];
  const seen: Json[] = [];
  for (const [path, input] of views) seen.push((await t.send(victim, path, input)).body);
  return JSON.parse(withoutClock(seen));
}

/**
 * A view as text without what moves with the clock alone: a due item's next intervals are computed for
 * "now", and an export's download link is signed for now, so the same data answers other values a moment later.
 */
export const withoutClock = (view: unknown) =>
  JSON.stringify(view, (key, value) => (key === 'nextIntervals' || key === 'url' ? undefined : value));
