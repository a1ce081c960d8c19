// What makes a card request valid, independent of storage. The limits are the shared contracts'; the
// service checks them itself because it never trusts its callers.
import {
  CARD_SIDE_MAX_LENGTH,
  createCardInput,
  cursor,
  DASHBOARD_PAGE_SIZE,
  MAX_PAGE_SIZE,
} from '@engram/contracts/cards';
import { z } from 'zod';

export { CARD_SIDE_MAX_LENGTH };

export const newCardSchema = createCardInput;

export const listCardsSchema = z.object({
  // Protobuf has no "unset": 0 means the default page size.
  pageSize: z
    .number()
    .int()
    .min(0)
    .max(MAX_PAGE_SIZE, `Page size must be at most ${MAX_PAGE_SIZE}.`)
    .transform((n) => n || DASHBOARD_PAGE_SIZE),
  archived: z.boolean(),
  cursor,
});
