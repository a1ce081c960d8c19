// The tag procedures: list (by name), create, rename and delete the caller's tags. Names are unique per
// learner regardless of case; deleting a tag takes it off every card.
import { createTagInput, deleteTagInput, renameTagInput } from '@engram/contracts/cards';
import { Conflict, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type * as Proto from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { listTagsSchema } from '../domain/card.js';
import { decodeTagCursor, encodeTagCursor } from '../domain/tag-cursor.js';
import { tagKey } from '../domain/tag-name.js';
import { toProtoTag } from './to-proto.js';

const TAG_EXISTS = () => new Conflict('A tag with this name already exists.', 'TAG_EXISTS');
const TAG_NOT_FOUND = () => new NotFound('Tag not found.', 'TAG_NOT_FOUND');

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'P2002';
}

export function listTags({ db }: Stores) {
  return async (request: Proto.ListTagsRequest, ctx: CallContext): Promise<Proto.ListTagsResponse> => {
    const { pageSize, cursor } = parseInput(listTagsSchema, request);
    const after = cursor ? decodeTagCursor(cursor) : undefined;
    const rows = await db.tag.findMany({
      where: {
        ownerId: ctx.caller.userId,
        ...(after && { OR: [{ nameKey: { gt: after.nameKey } }, { nameKey: after.nameKey, id: { gt: after.id } }] }),
      },
      orderBy: [{ nameKey: 'asc' }, { id: 'asc' }],
      take: pageSize + 1,
    });
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    return { items: page.map(toProtoTag), nextCursor: rows.length > pageSize && last ? encodeTagCursor(last) : '' };
  };
}

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

export function deleteTag({ db }: Stores) {
  return async (request: Proto.DeleteTagRequest, ctx: CallContext): Promise<Proto.DeleteTagResponse> => {
    const { id } = parseInput(deleteTagInput, request);
    const { count } = await db.tag.deleteMany({ where: { id, ownerId: ctx.caller.userId } });
    if (count === 0) throw TAG_NOT_FOUND();
    return {};
  };
}
