// RenameTag: gives one of the caller's tags a new name, unique among theirs regardless of case.
import { renameTagInput } from '@engram/contracts/cards';
import { isUniqueViolation } from '@engram/kit/db';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type * as Proto from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { TAG_EXISTS, TAG_NOT_FOUND } from '../domain/tag-errors.js';
import { tagKey } from '../domain/tag-name.js';
import { toProtoTag } from '../domain/to-proto.js';

export function renameTag({ db }: Stores) {
  return async (request: Proto.RenameTagRequest, ctx: CallContext): Promise<Proto.RenameTagResponse> => {
    const { id, name } = parseInput(renameTagInput, request);
    try {
      const { count } = await db.tag.updateMany({
        where: { id, ownerId: ctx.caller.userId },
        data: { name, nameKey: tagKey(name) },
      });
      if (count === 0) throw TAG_NOT_FOUND();
    } catch (error) {
      if (isUniqueViolation(error)) throw TAG_EXISTS();
      throw error;
    }
    return { tag: toProtoTag(await db.tag.findUniqueOrThrow({ where: { id } })) };
  };
}
