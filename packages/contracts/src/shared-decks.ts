// Learning together in an organization (the organizations service): shared decks, assignments and
// progress. The input shapes and limits of the orgs.* procedures, shared by the web app's forms, the
// gateway and the service's own checks, so a limit is written once.

import { cursor, pageSize } from './cards.ts';
import { z } from './zod.ts';

export const DECK_NAME_MAX_LENGTH = 64;
export const DECK_DESCRIPTION_MAX_LENGTH = 500;
/** The most cards one deck shares (as many as one createMany call takes). */
export const DECK_CARD_LIMIT = 500;
/** What an assignment asks for: a number of the deck's cards learned, or a retention. */
export const ASSIGNMENT_TARGET_KINDS = ['cards_learned', 'retention'] as const;
export type AssignmentTargetKind = (typeof ASSIGNMENT_TARGET_KINDS)[number];
/** A retention target's bounds (0..1). */
export const RETENTION_TARGET_RANGE = { min: 0.5, max: 0.99 } as const;
/** A page of decks, assignments or members' progress unless the caller asks for fewer (at most
 * MAX_PAGE_SIZE, as every list); the next page follows nextCursor. */
export const LEARNING_PAGE_SIZE = 50;

export const DECK_MESSAGES = {
  nameRequired: 'Deck name is required.',
  nameTooLong: `Deck name must be at most ${DECK_NAME_MAX_LENGTH} characters.`,
  descriptionTooLong: `Deck description must be at most ${DECK_DESCRIPTION_MAX_LENGTH} characters.`,
  tagRequired: 'Choose the tag whose cards the deck shares.',
  dueDateRequired: 'Choose a due date.',
  dueDatePast: 'The due date must be in the future.',
  targetKind: 'The target must be cards learned or retention.',
  retentionRange: 'The retention target must be between 50% and 99%.',
} as const;

const organizationId = z.string().trim().min(1, 'Organization not found.');
const entityId = (what: string) => z.string().trim().min(1, `${what} not found.`).max(64, `${what} not found.`);

const page = { pageSize: pageSize(LEARNING_PAGE_SIZE), cursor: cursor.nullish() };
export const listDecksInput = z.object({ organizationId, ...page });
export const deckInput = z.object({ deckId: entityId('Deck') });
export const publishDeckInput = z.object({
  organizationId,
  teamId: z.string().trim().max(64).optional(),
  name: z.string().trim().min(1, DECK_MESSAGES.nameRequired).max(DECK_NAME_MAX_LENGTH, DECK_MESSAGES.nameTooLong),
  description: z.string().trim().max(DECK_DESCRIPTION_MAX_LENGTH, DECK_MESSAGES.descriptionTooLong).optional(),
  tagId: z.string().trim().min(1, DECK_MESSAGES.tagRequired).max(64),
});
export const createAssignmentInput = z.object({
  organizationId,
  deckId: entityId('Deck'),
  teamId: z.string().trim().max(64).optional(),
  dueAt: z.iso.datetime({ offset: true, message: DECK_MESSAGES.dueDateRequired }),
  targetKind: z.enum(ASSIGNMENT_TARGET_KINDS, DECK_MESSAGES.targetKind),
  targetValue: z.number().positive().max(DECK_CARD_LIMIT),
});
export const assignmentInput = z.object({ assignmentId: entityId('Assignment') });
export const listAssignmentsInput = z.object({ organizationId: organizationId.optional(), ...page }).optional();
export const progressInput = z.object({ organizationId, assignmentId: entityId('Assignment').optional(), ...page });

export type PublishDeckInput = z.infer<typeof publishDeckInput>;
export type CreateAssignmentInput = z.infer<typeof createAssignmentInput>;

/** The domain reasons of the organizations service's refusals (tRPC error data), which the web app shows in
 * the user's language. */
export const LEARNING_REASONS = {
  assignmentNotFound: 'ASSIGNMENT_NOT_FOUND',
  deckNotFound: 'DECK_NOT_FOUND',
  deckEmpty: 'DECK_EMPTY',
  deckTooLarge: 'DECK_TOO_LARGE',
  deckNameRequired: 'DECK_NAME_REQUIRED',
  deckNameTooLong: 'DECK_NAME_TOO_LONG',
  deckDescriptionTooLong: 'DECK_DESCRIPTION_TOO_LONG',
  deckTeamMismatch: 'DECK_TEAM_MISMATCH',
  notDeckPublisher: 'NOT_DECK_PUBLISHER',
  tagRequired: 'TAG_REQUIRED',
  dueDateRequired: 'DUE_DATE_REQUIRED',
  dueDatePast: 'DUE_DATE_PAST',
  targetKindInvalid: 'TARGET_KIND_INVALID',
  targetValueInvalid: 'TARGET_VALUE_INVALID',
  permissionDenied: 'PERMISSION_DENIED',
  invalidCursor: 'INVALID_CURSOR',
} as const;
