// The note types a learner's notes are of (issue 45): the stock ones, the same for everyone, and the learner's own
// rows of note_types. Another learner's note type is not found, as if it did not exist.
import { isUuid } from '@engram/contracts/ids';
import {
  isStockNoteTypeId,
  type NoteKind,
  type NoteTemplate,
  type NoteTypeShape,
  stockNoteType,
} from '@engram/contracts/note-types';
import { NotFound } from '@engram/kit/errors';
import type { Prisma } from '../generated/prisma/client.js';

export const noteTypeNotFound = () => new NotFound('Note type not found.', 'NOTE_TYPE_NOT_FOUND');

/** A stored note type's columns, as Prisma or a SQL row (json_build_object) gives them. */
export interface NoteTypeRow {
  name: string;
  kind: string;
  fields: string[];
  templates: unknown;
}

/** The shape a stored note type's row describes. */
export function shapeOfRow(row: NoteTypeRow): NoteTypeShape {
  const templates = (Array.isArray(row.templates) ? row.templates : []) as NoteTemplate[];
  return {
    name: row.name,
    kind: row.kind === 'cloze' ? 'cloze' : ('standard' as NoteKind),
    fields: row.fields,
    templates: templates.map(({ name, front, back }) => ({ name, front, back })),
  };
}

/** The note type `id` of `ownerId`: a stock one, or their own; anyone else's, or none, is NOT_FOUND. */
export async function noteTypeOf(tx: Prisma.TransactionClient, ownerId: string, id: string): Promise<NoteTypeShape> {
  if (isStockNoteTypeId(id)) return stockNoteType(id);
  if (!isUuid(id)) throw noteTypeNotFound();
  const row = await tx.noteType.findFirst({ where: { id, ownerId } });
  if (!row) throw noteTypeNotFound();
  return shapeOfRow(row);
}

/**
 * SQL: the note type of the card aliased `card` as JSON ({name, kind, fields, templates}) when it is one of its
 * owner's own; null for a stock type (resolved in code) or a card that is no note.
 */
export const noteTypeJson = (card: string) => `(
    SELECT json_build_object('name', nt.name, 'kind', nt.kind, 'fields', nt.fields, 'templates', nt.templates)
    FROM note_types nt
    WHERE ${card}.note_type_id IS NOT NULL AND nt.owner_id = ${card}.owner_id AND nt.id::text = ${card}.note_type_id
  )`;

/** A card row's note type, from its id and the JSON noteTypeJson read (undefined: not a note). */
export function noteTypeFromRow(id: string | null, json: NoteTypeRow | null): NoteTypeShape | undefined {
  if (!id) return undefined;
  if (isStockNoteTypeId(id)) return stockNoteType(id);
  return json ? shapeOfRow(json) : undefined;
}
