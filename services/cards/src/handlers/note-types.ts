// ListNoteTypes, CreateNoteType, UpdateNoteType and DeleteNoteType: the note types a learner makes notes of (issue
// 45). The stock ones are everyone's and never change; a learner's own are theirs alone (another's is not found).
// Changing a type changes every note of it in the same transaction: its fields move as field_sources say, its
// front and back follow, and its review items follow the new templates (those that remain keep their history).
// One learner's note type writes run one at a time (a transaction lock), so the cap and the names hold.
import {
  cardOrdinals,
  deleteNoteTypeInput,
  isStockNoteTypeId,
  isStockNoteTypeName,
  MAX_NOTE_TYPES,
  NOTE_TYPE_REASONS,
  type NoteTypeInput,
  type NoteTypeShape,
  noteSides,
  noteTypeShape,
  remapFields,
  STOCK_NOTE_TYPES,
  safeCss,
  updateNoteTypeInput,
} from '@engram/contracts/note-types';
import { Conflict, FailedPrecondition, Invalid } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type {
  DeleteNoteTypeRequest,
  DeleteNoteTypeResponse,
  ListNoteTypesResponse,
  NoteType,
  NoteTypeRequest,
} from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { noteTypeNotFound, shapeOfRow } from '../domain/note-types.js';
import type { NoteType as NoteTypeRow, Prisma } from '../generated/prisma/client.js';

type Tx = Prisma.TransactionClient;

/** Serialises one learner's note type writes. */
const lockNoteTypes = (tx: Tx, ownerId: string) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`cards-note-types:${ownerId}`}))`;

/** How many notes of each note type the learner has: by note type id, or by card type for the stock types. */
async function noteCounts(tx: Tx, ownerId: string): Promise<Map<string, number>> {
  const rows = await tx.$queryRaw<{ key: string; notes: number }[]>`
    SELECT coalesce(note_type_id, type::text) AS key, count(*)::int AS notes
    FROM cards WHERE owner_id = ${ownerId} GROUP BY 1`;
  return new Map(rows.map((row) => [row.key, row.notes]));
}

const message = (id: string, type: NoteTypeShape & { css?: string }, stock: boolean, notes: number): NoteType => ({
  id,
  name: type.name,
  kind: type.kind,
  fields: type.fields,
  templates: type.templates,
  css: type.css ?? '',
  stock,
  notes,
});

const ownMessage = (row: NoteTypeRow, notes: number) =>
  message(row.id, { ...shapeOfRow(row), css: row.css }, false, notes);

/** A request's note type, checked as the contracts say. */
const shapeOf = (request: NoteTypeRequest) => ({
  name: request.name,
  kind: request.kind || undefined,
  fields: request.fields,
  templates: request.templates,
  css: request.css,
});

/** The columns a note type's shape is stored in; its styling made safe. */
const columns = (type: NoteTypeInput) => ({
  name: type.name,
  kind: type.kind,
  fields: type.fields,
  templates: type.templates.map(({ name, front, back }) => ({ name, front, back })),
  css: safeCss(type.css),
});

async function assertNameFree(tx: Tx, ownerId: string, name: string, except?: string) {
  if (isStockNoteTypeName(name)) {
    throw new Conflict(`"${name}" is the name of a stock note type: choose another.`, NOTE_TYPE_REASONS.nameTaken);
  }
  const taken = await tx.noteType.findFirst({
    where: { ownerId, name: { equals: name, mode: 'insensitive' }, ...(except && { id: { not: except } }) },
    select: { id: true },
  });
  if (taken) throw new Conflict(`You already have a note type named "${name}".`, NOTE_TYPE_REASONS.nameTaken);
}

export function listNoteTypes({ db }: Stores) {
  return async (_request: unknown, ctx: CallContext): Promise<ListNoteTypesResponse> => {
    const ownerId = ctx.caller.userId;
    const [own, counts] = await Promise.all([
      db.noteType.findMany({ where: { ownerId }, orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
      noteCounts(db, ownerId),
    ]);
    const stockCount = (id: string, cardType: string) => counts.get(cardType === 'note' ? id : cardType) ?? 0;
    return {
      items: [
        ...STOCK_NOTE_TYPES.map((stock) => message(stock.id, stock, true, stockCount(stock.id, stock.cardType))),
        ...own.map((row) => ownMessage(row, counts.get(row.id) ?? 0)),
      ],
    };
  };
}

export function createNoteType({ db }: Stores) {
  return async (request: NoteTypeRequest, ctx: CallContext): Promise<NoteType> => {
    const ownerId = ctx.caller.userId;
    const type = parseInput(noteTypeShape, shapeOf(request));
    const created = await db.$transaction(async (tx) => {
      await lockNoteTypes(tx, ownerId);
      if ((await tx.noteType.count({ where: { ownerId } })) >= MAX_NOTE_TYPES) {
        throw new FailedPrecondition(
          `A learner keeps at most ${MAX_NOTE_TYPES} note types.`,
          NOTE_TYPE_REASONS.tooMany,
        );
      }
      await assertNameFree(tx, ownerId, type.name);
      return tx.noteType.create({ data: { ownerId, ...columns(type) } });
    });
    ctx.logger.info({ noteTypeId: created.id }, 'note type created');
    return ownMessage(created, 0);
  };
}

/** The learner's own note type `id`, locked for the transaction; a stock type is refused, anyone else's not found. */
async function ownNoteType(tx: Tx, ownerId: string, id: string) {
  if (isStockNoteTypeId(id)) {
    throw new FailedPrecondition('The stock note types cannot be changed or deleted.', NOTE_TYPE_REASONS.stock);
  }
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM note_types WHERE id::text = ${id} AND owner_id = ${ownerId} FOR UPDATE`;
  if (!row) throw noteTypeNotFound();
  return tx.noteType.findUniqueOrThrow({ where: { id: row.id } });
}

/** Notes changed per statement when a note type changes. */
const NOTE_BATCH = 1000;

/**
 * Brings every note of note type `id` to its new shape: fields moved by `sources`, front and back from them, review
 * items by the new templates (new ones start new; those gone are removed with their history, as Anki's are).
 */
async function followNoteType(tx: Tx, ownerId: string, id: string, type: NoteTypeShape, sources: number[]) {
  const now = new Date();
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const notes = await tx.card.findMany({
      where: { ownerId, noteTypeId: id, id: { gt: after } },
      select: { id: true, fields: true, archived: true },
      orderBy: { id: 'asc' },
      take: NOTE_BATCH,
    });
    if (notes.length === 0) return;
    after = notes.at(-1)!.id;
    const changes = notes.map((note) => {
      const fields = remapFields(note.fields, sources);
      const sides = noteSides(fields);
      const wanted = cardOrdinals({ type: 'note', ...sides, note: { type, fields } });
      return { id: note.id, fields, front: sides.front, back: sides.back, wanted, archived: note.archived };
    });
    const json = JSON.stringify(changes);
    await tx.$executeRaw`
      UPDATE cards c SET fields = ARRAY(SELECT jsonb_array_elements_text(v->'fields')),
        front = v->>'front', back = v->>'back', updated_at = ${now}
      FROM jsonb_array_elements(${json}::jsonb) v
      WHERE c.id = (v->>'id')::uuid AND c.owner_id = ${ownerId}`;
    await tx.$executeRaw`
      DELETE FROM review_items i USING jsonb_array_elements(${json}::jsonb) v
      WHERE i.card_id = (v->>'id')::uuid AND i.owner_id = ${ownerId}
        AND NOT i.ordinal = ANY(ARRAY(SELECT jsonb_array_elements_text(v->'wanted'))::int[])`;
    await tx.$executeRaw`
      INSERT INTO review_items (id, card_id, owner_id, ordinal, due, archived)
      SELECT gen_random_uuid(), (v->>'id')::uuid, ${ownerId}, o::int, ${now}, (v->>'archived')::boolean
      FROM jsonb_array_elements(${json}::jsonb) v, jsonb_array_elements_text(v->'wanted') o
      ON CONFLICT (card_id, ordinal) DO NOTHING`;
  }
}

export function updateNoteType({ db }: Stores) {
  return async (request: NoteTypeRequest, ctx: CallContext): Promise<NoteType> => {
    const ownerId = ctx.caller.userId;
    const input = parseInput(updateNoteTypeInput, {
      id: request.id,
      type: shapeOf(request),
      ...(request.fieldSources.length > 0 && { fieldSources: request.fieldSources }),
    });
    const { type } = input;
    const updated = await db.$transaction(
      async (tx) => {
        await lockNoteTypes(tx, ownerId);
        const current = await ownNoteType(tx, ownerId, input.id);
        const sources = input.fieldSources ?? type.fields.map((_, index) => index);
        if (sources.some((source) => source >= current.fields.length)) {
          throw new Invalid('A field source names a field the note type does not have.', NOTE_TYPE_REASONS.fieldSource);
        }
        await assertNameFree(tx, ownerId, type.name, current.id);
        const row = await tx.noteType.update({ where: { id: current.id }, data: columns(type) });
        await followNoteType(tx, ownerId, current.id, shapeOfRow(row), sources);
        return row;
      },
      { timeout: 60_000 },
    );
    const notes = await db.card.count({ where: { ownerId, noteTypeId: updated.id } });
    return ownMessage(updated, notes);
  };
}

export function deleteNoteType({ db }: Stores) {
  return async (request: DeleteNoteTypeRequest, ctx: CallContext): Promise<DeleteNoteTypeResponse> => {
    const ownerId = ctx.caller.userId;
    const { id } = parseInput(deleteNoteTypeInput, { id: request.id });
    await db.$transaction(async (tx) => {
      await lockNoteTypes(tx, ownerId);
      const current = await ownNoteType(tx, ownerId, id);
      const notes = await tx.card.count({ where: { ownerId, noteTypeId: current.id } });
      if (notes > 0) {
        throw new FailedPrecondition(
          notes === 1
            ? 'This note type has 1 note: delete it or change its note type first.'
            : `This note type has ${notes} notes: delete them or change their note type first.`,
          NOTE_TYPE_REASONS.inUse,
        );
      }
      await tx.noteType.delete({ where: { id: current.id } });
    });
    ctx.logger.info({ noteTypeId: id }, 'note type deleted');
    return {};
  };
}
