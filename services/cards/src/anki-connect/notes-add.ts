// Adding notes as Anki's tools do (addNote, addNotes, canAddNotes, canAddNotesWithErrorDetail), with AnkiConnect's
// checks in its order: the note type ("model was not found: X"; a stock one or the learner's own), the deck ("deck
// was not found: X"), the fields (matched by name in any case; others are ignored), an empty first field ("cannot
// create note because it is empty"), a duplicate ("cannot create note because it is a duplicate"); then its audio,
// picture and video are kept as the learner's files and appended to their fields, and the card is made (a note of
// the learner's own type with all its fields) with its review items, its deck and tags (made where missing) and
// its CardCreated event.
//
// A duplicate is a card whose first side has the same key (cards.first_key: markup and media left out, accents
// and case folded) within `duplicateScope`: the whole collection, or with "deck" the deck
// (duplicateScopeOptions.deckName, else the note's) and, with checkChildren, its `::` children; of the same note
// type unless checkAllModels. allowDuplicate skips the check.
import { createHash } from 'node:crypto';
import { newCard } from '@engram/contracts/cards';
import { prismaTransaction } from '@engram/kit/events/outbox';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { Stores } from '../db.js';
import { insertCard } from '../domain/card-writes.js';
import { tagKey } from '../domain/tag-name.js';
import { recordCardCreated } from '../events/card-created.js';
import type { MediaDeps } from '../media/media-deps.js';
import { ankiError, DUPLICATE_NOTE, deckNotFound, EMPTY_NOTE } from './anki-error.js';
import { assertTagCount, checkedTagName, isDefaultDeck, tagIdsFor, tagList } from './decks.js';
import { sidesToMarkdown } from './fields.js';
import { type AnkiMediaKind, ankiMediaName, bytesOfBase64, bytesOfUpload, storeAnkiMedia } from './media-files.js';
import { fieldIndexOf, type NoteType, noteTypeNamed, noteTypesOf } from './note-types.js';

export interface AnkiConnectDeps {
  stores: Stores;
  media: MediaDeps;
  /** The bytes at a URL, fetched with the guard of every server-side fetch; refused with a reason. */
  fetchUrl: (url: string, signal: AbortSignal) => Promise<Buffer>;
}

/** A note as a tool describes it, checked up to its duplicate test. */
interface CheckedNote {
  noteType: NoteType;
  deckName: string;
  /** The fields as the tool sent them (HTML), in the note type's order. */
  values: string[];
  tags: string[];
  options: {
    allowDuplicate: boolean;
    scope: 'collection' | 'deck';
    scopeDeck: string;
    children: boolean;
    allModels: boolean;
  };
  raw: Record<string, unknown>;
}

const objectOf = (value: unknown, what: string): Record<string, unknown> => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw ankiError(`${what} must be an object`);
  return value as Record<string, unknown>;
};

/** Reads a note, its type and its deck (which must exist), without the duplicate test. */
async function checkedNote(stores: Stores, ownerId: string, value: unknown): Promise<CheckedNote> {
  const note = objectOf(value, 'note');
  const noteType = noteTypeNamed(await noteTypesOf(stores.db, ownerId), note.modelName);
  const deckName = typeof note.deckName === 'string' ? note.deckName : '';
  if (!(await deckExists(stores, ownerId, deckName))) throw deckNotFound(deckName);
  const values = noteType.fields.map(() => '');
  for (const [name, field] of Object.entries(objectOf(note.fields ?? {}, 'fields'))) {
    const index = fieldIndexOf(noteType, name);
    if (index !== undefined) values[index] = typeof field === 'string' ? field : String(field ?? '');
  }
  const options = objectOf(note.options ?? {}, 'options');
  const scopeOptions = objectOf(options.duplicateScopeOptions ?? {}, 'duplicateScopeOptions');
  const scopeDeck =
    typeof scopeOptions.deckName === 'string' && scopeOptions.deckName ? scopeOptions.deckName : deckName;
  return {
    noteType,
    deckName,
    values,
    tags: tagList(note.tags ?? []),
    options: {
      allowDuplicate: options.allowDuplicate === true,
      scope: options.duplicateScope === 'deck' ? 'deck' : 'collection',
      scopeDeck,
      children: scopeOptions.checkChildren === true,
      allModels: scopeOptions.checkAllModels === true,
    },
    raw: note,
  };
}

async function deckExists(stores: Stores, ownerId: string, name: string): Promise<boolean> {
  if (name.trim() === '') return false;
  if (isDefaultDeck(name)) return true;
  const found = await stores.db.tag.findFirst({ where: { ownerId, nameKey: tagKey(name) }, select: { id: true } });
  return found !== null;
}

/** Refuses a note whose first field is empty, or a duplicate under its options. */
async function assertAddable(stores: Stores, ownerId: string, note: CheckedNote, front: string): Promise<void> {
  if (front.trim() === '') throw ankiError(EMPTY_NOTE);
  if (note.options.allowDuplicate) return;
  const params: unknown[] = [ownerId, front];
  const { noteTypeId, type } = note.noteType;
  const types = note.options.allModels
    ? ''
    : noteTypeId
      ? `AND c.type = 'note' AND c.note_type_id = $${params.push(noteTypeId)}`
      : `AND c.type = $${params.push(type)}::card_type`;
  let scope = '';
  if (note.options.scope === 'deck') {
    const key = params.push(tagKey(note.options.scopeDeck));
    const children = note.options.children
      ? ` OR t.name_key LIKE replace(replace(replace($${key}, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '::%'`
      : '';
    scope = isDefaultDeck(note.options.scopeDeck)
      ? 'AND NOT EXISTS (SELECT 1 FROM card_tags ct WHERE ct.card_id = c.id)'
      : `AND EXISTS (SELECT 1 FROM card_tags ct JOIN tags t ON t.id = ct.tag_id
           WHERE ct.card_id = c.id AND (t.name_key = $${key}${children}))`;
  }
  const { rowCount } = await stores.pool.query(
    `SELECT 1 FROM cards c WHERE c.owner_id = $1 AND c.first_key = first_side_key($2) ${types} ${scope} LIMIT 1`,
    params,
  );
  if (rowCount) throw ankiError(DUPLICATE_NOTE);
}

/** The note's first side as it would be stored (its files not yet kept: their names are enough to test it). */
async function frontOf(stores: Stores, ownerId: string, note: CheckedNote): Promise<string> {
  const [front = ''] = await sidesToMarkdown(stores.db, ownerId, [note.values[0] ?? '']);
  return front;
}

/** canAddNotesWithErrorDetail's answer for one note (and canAddNotes' boolean). */
export async function canAdd(deps: AnkiConnectDeps, ownerId: string, value: unknown) {
  try {
    const note = await checkedNote(deps.stores, ownerId, value);
    await assertAddable(deps.stores, ownerId, note, await frontOf(deps.stores, ownerId, note));
    return { canAdd: true as const };
  } catch (error) {
    if (error instanceof Error && 'reason' in error) return { canAdd: false as const, error: error.message };
    throw error;
  }
}

const MEDIA_KINDS: readonly AnkiMediaKind[] = ['audio', 'video', 'picture'];

/** Keeps the note's audio, picture and video entries and appends each to its fields (AnkiConnect's way). */
export async function addNoteMedia(
  deps: AnkiConnectDeps,
  ctx: CallContext,
  noteType: NoteType,
  raw: Record<string, unknown>,
  values: string[],
): Promise<void> {
  for (const kind of MEDIA_KINDS) {
    const value = raw[kind];
    if (value === undefined || value === null) continue;
    for (const entry of Array.isArray(value) ? value : [value]) {
      const media = objectOf(entry, kind);
      const name = ankiMediaName(media.filename);
      const bytes = await mediaBytes(deps, ctx, media);
      if (typeof media.skipHash === 'string' && createHash('md5').update(bytes).digest('hex') === media.skipHash)
        continue;
      const stored = await storeAnkiMedia(deps.media, ctx, {
        name,
        bytes,
        deleteExisting: media.deleteExisting !== false,
      });
      const tag = kind === 'picture' ? `<img src="${stored.name.replace(/"/g, '&quot;')}">` : `[sound:${stored.name}]`;
      const fields = Array.isArray(media.fields)
        ? media.fields
        : typeof media.fields === 'string'
          ? [media.fields]
          : [];
      for (const field of fields) {
        const index = fieldIndexOf(noteType, String(field));
        if (index !== undefined) values[index] += tag;
      }
    }
  }
}

/**
 * The bytes of a media entry or storeMediaFile: its `data` (base64; a large file the gateway put in the store,
 * `uploadId`) or its `url`; a `path` is on the tool's device.
 */
export async function mediaBytes(
  deps: AnkiConnectDeps,
  ctx: CallContext,
  media: Record<string, unknown>,
): Promise<Buffer> {
  const { signal } = ctx;
  if (typeof media.uploadId === 'string') return bytesOfUpload(deps.media, ctx.caller.userId, media.uploadId);
  if (typeof media.data === 'string') return bytesOfBase64(media.data);
  if (typeof media.url === 'string') return deps.fetchUrl(media.url, signal);
  if (typeof media.path === 'string') {
    throw ankiError(
      `Engram cannot open ${media.path}: a path names a file on your device. Send the file as "data" (base64) or a "url".`,
    );
  }
  throw ankiError('You must provide a "data", "path", or "url" field.');
}

/** addNote: the new note's id. */
export async function addNote(deps: AnkiConnectDeps, ctx: CallContext, value: unknown): Promise<number> {
  const { stores } = deps;
  const ownerId = ctx.caller.userId;
  const note = await checkedNote(stores, ownerId, value);
  await assertAddable(stores, ownerId, note, await frontOf(stores, ownerId, note));
  const values = [...note.values];
  await addNoteMedia(deps, ctx, note.noteType, note.raw, values);
  const markdown = await sidesToMarkdown(stores.db, ownerId, values);
  const [front = '', back = ''] = markdown;
  const { noteTypeId } = note.noteType;
  const card = parseInput(
    newCard,
    noteTypeId ? { noteTypeId, fields: markdown, tagIds: [] } : { front, back, type: note.noteType.type, tagIds: [] },
  );
  const created = await prismaTransaction(stores.db, async (tx) => {
    const tagIds = await tagIdsFor(tx, ownerId, note.tags, [checkedTagName(note.deckName)]);
    assertTagCount(tagIds.length);
    const inserted = await insertCard(tx, ownerId, { ...card, tagIds }, new Date());
    await recordCardCreated(tx, inserted);
    return inserted;
  });
  ctx.logger.info({ cardId: created.id }, 'card added through AnkiConnect');
  return Number(created.number);
}
