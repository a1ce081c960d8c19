// AnkiConnect's actions on one learner's cards, by name, each with its params as the clients send them (the
// gateway reads the protocol around them: versions, multi, keys, version and requestPermission). Any action not
// here is "unsupported action", as AnkiConnect answers one it does not know; guiEditNote among them, on which
// Yomitan falls back to guiBrowse. A refusal Engram makes inside an action (a side too long, a file refused,
// the storage quota reached) reaches the tool as the action's error, in Engram's words.
import type { CallContext } from '@engram/kit/grpc/server';
import { ankiError, UNSUPPORTED_ACTION } from './anki-error.js';
import { decksOf } from './decks.js';
import { ankiMediaName, storeAnkiMedia } from './media-files.js';
import { ankiMediaId } from './media-names.js';
import { noteTypeNamed, noteTypesOf } from './note-types.js';
import { type AnkiConnectDeps, addNote, canAdd, mediaBytes } from './notes-add.js';
import {
  addTags,
  changeDeck,
  createDeck,
  deleteNotes,
  getTags,
  removeTags,
  setSuspended,
  updateNoteFields,
} from './notes-edit.js';
import { areSuspended, cardsInfo, findNumbers, notesInfo } from './notes-read.js';

type Params = Record<string, unknown>;
type Action = (deps: AnkiConnectDeps, ctx: CallContext, params: Params) => Promise<unknown>;

const listOf = (value: unknown, what: string): unknown[] => {
  if (!Array.isArray(value)) throw ankiError(`${what} must be a list`);
  return value;
};

/** Every note, or none: AnkiConnect's addNotes answers the ids, or the errors of the notes it could not add. */
async function addNotes(deps: AnkiConnectDeps, ctx: CallContext, params: Params): Promise<(number | null)[]> {
  const notes = listOf(params.notes, 'notes');
  const checked = await Promise.all(notes.map((note) => canAdd(deps, ctx.caller.userId, note)));
  const errors = checked.flatMap((each) => (each.canAdd ? [] : [each.error]));
  if (errors.length > 0) throw ankiError(`[${errors.map((error) => `'${error}'`).join(', ')}]`);
  const ids: number[] = [];
  for (const note of notes) ids.push(await addNote(deps, ctx, note));
  return ids;
}

const owner = (ctx: CallContext) => ctx.caller.userId;

export const ACTIONS: Record<string, Action> = {
  deckNames: async ({ stores }, ctx) => (await decksOf(stores.pool, owner(ctx))).map((deck) => deck.name),
  deckNamesAndIds: async ({ stores }, ctx) =>
    Object.fromEntries((await decksOf(stores.pool, owner(ctx))).map((deck) => [deck.name, deck.id])),
  createDeck: ({ stores }, ctx, { deck }) => createDeck(stores, owner(ctx), deck),
  changeDeck: ({ stores }, ctx, { cards, deck }) => changeDeck(stores, owner(ctx), cards, deck),
  modelNames: async ({ stores }, ctx) => (await noteTypesOf(stores.db, owner(ctx))).map((type) => type.name),
  modelNamesAndIds: async ({ stores }, ctx) =>
    Object.fromEntries((await noteTypesOf(stores.db, owner(ctx))).map((type) => [type.name, type.id])),
  modelFieldNames: async ({ stores }, ctx, { modelName }) => [
    ...noteTypeNamed(await noteTypesOf(stores.db, owner(ctx)), modelName).fields,
  ],
  addNote: (deps, ctx, { note }) => addNote(deps, ctx, note),
  addNotes,
  canAddNotes: async (deps, ctx, { notes }) =>
    Promise.all(listOf(notes, 'notes').map(async (note) => (await canAdd(deps, owner(ctx), note)).canAdd)),
  canAddNotesWithErrorDetail: async (deps, ctx, { notes }) =>
    Promise.all(listOf(notes, 'notes').map((note) => canAdd(deps, owner(ctx), note))),
  updateNoteFields: (deps, ctx, { note }) => updateNoteFields(deps, ctx, note),
  notesInfo: async ({ stores }, ctx, { notes, query }) =>
    notesInfo(stores, owner(ctx), notes ?? (await findNumbers(stores, owner(ctx), query, 'notes'))),
  cardsInfo: ({ stores }, ctx, { cards }) => cardsInfo(stores, owner(ctx), cards),
  findNotes: ({ stores }, ctx, { query }) => findNumbers(stores, owner(ctx), query, 'notes'),
  findCards: ({ stores }, ctx, { query }) => findNumbers(stores, owner(ctx), query, 'cards'),
  // The gateway also shows these cards in the learner's open Engram tab.
  guiBrowse: ({ stores }, ctx, { query }) => findNumbers(stores, owner(ctx), query, 'cards'),
  suspend: ({ stores }, ctx, { cards }) => setSuspended(stores, owner(ctx), cards, true),
  unsuspend: ({ stores }, ctx, { cards }) => setSuspended(stores, owner(ctx), cards, false),
  areSuspended: ({ stores }, ctx, { cards }) => areSuspended(stores, owner(ctx), cards),
  addTags: ({ stores }, ctx, { notes, tags }) => addTags(stores, owner(ctx), notes, tags),
  removeTags: ({ stores }, ctx, { notes, tags }) => removeTags(stores, owner(ctx), notes, tags),
  getTags: ({ stores }, ctx) => getTags(stores, owner(ctx)),
  deleteNotes: ({ stores }, ctx, { notes }) => deleteNotes(stores, owner(ctx), notes),
  storeMediaFile: async (deps, ctx, params) => {
    const name = ankiMediaName(params.filename);
    const bytes = await mediaBytes(deps, ctx, params);
    const stored = await storeAnkiMedia(deps.media, ctx, {
      name,
      bytes,
      deleteExisting: params.deleteExisting !== false,
    });
    return stored.name;
  },
  // The file's id, which the gateway reads the bytes of (ankiMediaId).
  retrieveMediaFile: (deps, ctx, { filename }) => ankiMediaId(deps.media, owner(ctx), ankiMediaName(filename)),
  // Engram is always in sync: there is nothing to upload or download.
  sync: async () => null,
};

/** Runs `action` with its params; an action not known is refused as AnkiConnect refuses one. */
export function runAction(deps: AnkiConnectDeps, ctx: CallContext, action: string, params: Params): Promise<unknown> {
  const run = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
  if (!run) throw ankiError(UNSUPPORTED_ACTION);
  return run(deps, ctx, params);
}
