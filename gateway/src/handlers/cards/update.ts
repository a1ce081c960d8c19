// cards.update: changes the given fields of a card; the others stay as they are.
import { type UpdateCardInput, updateCardInput } from '@engram/contracts/cards';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type Card, cardJson } from './card-json.js';

export { updateCardInput };

export async function updateCard({ ctx, input }: HandlerArgs<UpdateCardInput>): Promise<Card> {
  const fields = [
    ...(input.front !== undefined ? ['front'] : []),
    ...(input.back !== undefined ? ['back'] : []),
    ...(input.type !== undefined ? ['type'] : []),
    ...(input.tagIds !== undefined ? ['tag_ids'] : []),
    ...(input.noteTypeId !== undefined ? ['note_type_id'] : []),
    ...(input.fields !== undefined ? ['field_values'] : []),
  ];
  const { card } = await asUser(ctx).cards.updateCard({
    id: input.id,
    fields,
    front: input.front ?? '',
    back: input.back ?? '',
    type: input.type ?? '',
    tagIds: input.tagIds ?? [],
    noteTypeId: input.noteTypeId ?? '',
    fieldValues: input.fields ?? [],
  });
  return cardJson(card);
}
