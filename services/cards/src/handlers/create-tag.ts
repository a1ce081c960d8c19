// CreateTag: adds a tag for the caller; names are unique per learner regardless of case.
import { createTagInput } from '@engram/contracts/cards';
import { isUniqueViolation } from '@engram/kit/db';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type * as Proto from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { TAG_EXISTS } from '../domain/tag-errors.js';
import { tagKey } from '../domain/tag-name.js';
import { toProtoTag } from '../domain/to-proto.js';

export function createTag({ db }: Stores) {
  return async (request: Proto.CreateTagRequest, ctx: CallContext): Promise<Proto.CreateTagResponse> => {
    const { name } = parseInput(createTagInput, request);
    try {
      const tag = await db.tag.create({ data: { ownerId: ctx.caller.userId, name, nameKey: tagKey(name) } });
      return { tag: toProtoTag(tag) };
    } catch (error) {
      if (isUniqueViolation(error)) throw TAG_EXISTS();
      throw error;
    }
  };
}
