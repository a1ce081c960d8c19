// cards.noteTypes, createNoteType, updateNoteType and deleteNoteType: the note types the learner makes notes of
// (issue 45), the stock ones first. The cards service checks every input again and owns the rules.
import {
  deleteNoteTypeInput,
  type NoteTemplate,
  type NoteTypeInput,
  noteTypeShape,
  updateNoteTypeInput,
} from '@engram/contracts/note-types';
import type { NoteType as NoteTypeMessage } from '@engram/proto/cards/v1/cards';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { deleteNoteTypeInput, updateNoteTypeInput };
export const createNoteTypeInput = noteTypeShape;

export interface NoteType {
  /** A stock type's key (basic, reversed, optional-reversed, cloze, typed, occlusion) or a UUID. */
  id: string;
  name: string;
  kind: 'standard' | 'cloze';
  fields: string[];
  templates: NoteTemplate[];
  css: string;
  stock: boolean;
  /** How many of the learner's notes are of it. */
  notes: number;
}

function noteTypeJson(message: NoteTypeMessage): NoteType {
  return {
    id: message.id,
    name: message.name,
    kind: message.kind === 'cloze' ? 'cloze' : 'standard',
    fields: message.fields,
    templates: message.templates.map(({ name, front, back }) => ({ name, front, back })),
    css: message.css,
    stock: message.stock,
    notes: message.notes,
  };
}

const request = (type: NoteTypeInput) => ({
  name: type.name,
  kind: type.kind,
  fields: type.fields,
  templates: type.templates,
  css: type.css,
});

export async function noteTypes({ ctx }: HandlerArgs): Promise<{ items: NoteType[] }> {
  const { items } = await asUser(ctx).cards.listNoteTypes({});
  return { items: items.map(noteTypeJson) };
}

export async function createNoteType({ ctx, input }: HandlerArgs<NoteTypeInput>): Promise<NoteType> {
  return noteTypeJson(await asUser(ctx).cards.createNoteType({ id: '', fieldSources: [], ...request(input) }));
}

export async function updateNoteType({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof updateNoteTypeInput>>): Promise<NoteType> {
  const changed = await asUser(ctx).cards.updateNoteType(
    { id: input.id, fieldSources: input.fieldSources ?? [], ...request(input.type) },
    { timeoutMs: 60_000 },
  );
  return noteTypeJson(changed);
}

export async function deleteNoteType({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof deleteNoteTypeInput>>): Promise<{ deleted: true }> {
  await asUser(ctx).cards.deleteNoteType(input);
  return { deleted: true };
}
