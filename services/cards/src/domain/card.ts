// What makes a list request valid, independent of storage. The limits are the shared contracts'; the
// service checks them itself because it never trusts its callers.
import {
  CARD_SIDE_MAX_LENGTH,
  cursor,
  DASHBOARD_PAGE_SIZE,
  MAX_PAGE_SIZE,
  TAG_PAGE_SIZE,
} from '@engram/contracts/cards';
import { SEARCH_QUERY_MAX_LENGTH, tagIds } from '@engram/contracts/learning';
import { z } from 'zod';

export { CARD_SIDE_MAX_LENGTH };

// Protobuf has no "unset": 0 means the default page size.
const pageSize = (fallback: number) =>
  z
    .number()
    .int()
    .min(0)
    .max(MAX_PAGE_SIZE, `Page size must be at most ${MAX_PAGE_SIZE}.`)
    .transform((n) => n || fallback);

export const listCardsSchema = z.object({
  pageSize: pageSize(DASHBOARD_PAGE_SIZE),
  archived: z.boolean(),
  cursor,
  tagIds,
  query: z
    .string()
    .trim()
    .max(SEARCH_QUERY_MAX_LENGTH, `Search text must be at most ${SEARCH_QUERY_MAX_LENGTH} characters.`),
});

export const listTagsSchema = z.object({ pageSize: pageSize(TAG_PAGE_SIZE), cursor });
