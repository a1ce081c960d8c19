// The note types an Anki import brings (issue 45): each custom Anki note type an Engram note type of the learner's,
// found again by its Anki id (`anki:<id>`) when the same collection comes in again, kept as the learner left it
// while its fields are the same (their edits to its templates stay), its fields and templates taken from Anki
// when they changed there. A name the learner already uses for another type (in any case), or a stock type's (a collection's
// "Basic" with a field added), gets a number: "Vocabulary (2)", "Basic (2)"; an export gives Anki's name back.
// The files its templates show are kept as the notes' are, and its templates point at them.
import type { EngramNoteTypeDraft } from '@engram/anki/to-engram';
import { isStockNoteTypeName, type NoteTypeShape } from '@engram/contracts/note-types';
import type pg from 'pg';
import { shapeOfRow } from '../domain/note-types.js';
import { type MediaOutcome, withFileUrls } from './anki-media.js';

export interface ImportedNoteType {
  id: string;
  shape: NoteTypeShape;
}

interface Row {
  id: string;
  name: string;
  kind: string;
  fields: string[];
  templates: unknown;
}

const FIND = `SELECT id::text, name, kind, fields, templates FROM note_types WHERE owner_id = $1 AND external_id = $2`;

const INSERT = `
INSERT INTO note_types (id, owner_id, name, kind, fields, templates, css, anki, external_id, created_at, updated_at)
SELECT gen_random_uuid(), $1::text, $2::text, $3::text, $4::text[], $5::jsonb, $6::text, $7::jsonb, $8::text, now(), now()
WHERE NOT EXISTS (SELECT 1 FROM note_types WHERE owner_id = $1 AND lower(name) = lower($2))
ON CONFLICT (owner_id, name) DO NOTHING
RETURNING id::text, name, kind, fields, templates`;

const REPLACE = `
UPDATE note_types SET kind = $3, fields = $4, templates = $5::jsonb, css = $6, anki = $7::jsonb, updated_at = now()
WHERE id = $1::uuid AND owner_id = $2
RETURNING id::text, name, kind, fields, templates`;

/** Names tried for a new type when the learner has one of its name already. */
const MAX_NAME_TRIES = 100;

/** The learner's note type for each custom Anki note type of the package, by Anki id. */
export async function importNoteTypes(
  tx: pg.ClientBase,
  ownerId: string,
  drafts: Iterable<EngramNoteTypeDraft>,
  media: { keep: (names: Iterable<string>) => Promise<unknown>; outcome: (name: string) => MediaOutcome | undefined },
): Promise<Map<number, ImportedNoteType>> {
  const types = [...drafts];
  await media.keep(new Set(types.flatMap((type) => type.media)));
  const found = new Map<number, ImportedNoteType>();
  for (const draft of types) {
    const templates = draft.templates.map((template) => ({
      name: template.name,
      front: withFileUrls(template.front, media.outcome),
      back: withFileUrls(template.back, media.outcome),
    }));
    const values = [draft.kind, draft.fields, JSON.stringify(templates), draft.css, JSON.stringify(draft.anki)];
    const externalId = `anki:${draft.ankiId}`;
    let row = (await tx.query<Row>(FIND, [ownerId, externalId])).rows[0];
    if (row && row.fields.join('\u001f') !== draft.fields.join('\u001f')) {
      row = (await tx.query<Row>(REPLACE, [row.id, ownerId, ...values])).rows[0];
    }
    for (let n = 1; !row && n <= MAX_NAME_TRIES; n++) {
      const name = n === 1 ? draft.name : `${draft.name} (${n})`;
      if (isStockNoteTypeName(name)) continue;
      row = (await tx.query<Row>(INSERT, [ownerId, name, ...values, externalId])).rows[0];
    }
    if (!row) throw new Error(`no free name for the note type "${draft.name}"`);
    found.set(draft.ankiId, { id: row.id, shape: shapeOfRow(row) });
  }
  return found;
}
