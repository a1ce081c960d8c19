// DeleteTag: removes one of the caller's tags, which takes it off every card.
import { deleteTagInput } from '@engram/contracts/cards';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type * as Proto from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { TAG_NOT_FOUND } from '../domain/tag-errors.js';

export function deleteTag({ db }: Stores) {
  return async (request: Proto.DeleteTagRequest, ctx: CallContext): Promise<Proto.DeleteTagResponse> => {
    const { id } = parseInput(deleteTagInput, request);
    const { count } = await db.tag.deleteMany({ where: { id, ownerId: ctx.caller.userId } });
    if (count === 0) throw TAG_NOT_FOUND();
    return {};
  };
}
