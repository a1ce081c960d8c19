// Shared decks: an organization's shared decks, assignments and members' progress (the organizations
// service). The input shapes and limits of the orgs.* procedures, shared by the web app's forms, the
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
export const SHARED_DECK_PAGE_SIZE = 50;

/** The words of each input rule of a deck or an assignment, in English: what the service answers API
 * callers. The web app's forms and toasts say them in the user's language, found by the rule's reason. */
export const DECK_MESSAGES = {
  nameRequired: 'Deck name is required.',
  nameTooLong: `Deck name must be at most ${DECK_NAME_MAX_LENGTH} characters.`,
  descriptionTooLong: `Deck description must be at most ${DECK_DESCRIPTION_MAX_LENGTH} characters.`,
  tagRequired: 'Choose the tag whose cards the deck shares.',
  dueDateRequired: 'Choose a due date.',
  dueDatePast: 'The due date must be in the future.',
  targetKind: 'The target must be cards learned or retention.',
  targetCards: (max: number) => `The target must be between 1 and ${max} cards.`,
  retentionRange: 'The retention target must be between 50% and 99%.',
} as const;

const organizationId = z.string().trim().min(1, 'Organization not found.');
const entityId = (what: string) => z.string().trim().min(1, `${what} not found.`).max(64, `${what} not found.`);

/** A deck's own fields as organizations keeps them: name and description trimmed, and the tag it shares.
 * Each check says its rule's message, which is how checkDeck knows the rule. */
export const deckFields = z.object({
  name: z.string().trim().min(1, DECK_MESSAGES.nameRequired).max(DECK_NAME_MAX_LENGTH, DECK_MESSAGES.nameTooLong),
  description: z.string().trim().max(DECK_DESCRIPTION_MAX_LENGTH, DECK_MESSAGES.descriptionTooLong).default(''),
  tagId: z.string().trim().min(1, DECK_MESSAGES.tagRequired),
});
export type DeckFields = z.infer<typeof deckFields>;

/** When an assignment is due and what kind of target it sets; the target's value depends on the kind and
 * the deck (targetValue). */
export const assignmentTerms = z.object({
  dueAt: z.iso.datetime({ offset: true, message: DECK_MESSAGES.dueDateRequired }),
  targetKind: z.enum(ASSIGNMENT_TARGET_KINDS, DECK_MESSAGES.targetKind),
});

/** The value a target of `kind` may take: 1 to the deck's `cardCount` cards learned, or a retention in
 * RETENTION_TARGET_RANGE. */
export function targetValue(kind: AssignmentTargetKind, cardCount: number) {
  if (kind === 'retention') {
    const message = DECK_MESSAGES.retentionRange;
    return z.number(message).min(RETENTION_TARGET_RANGE.min, message).max(RETENTION_TARGET_RANGE.max, message);
  }
  const message = DECK_MESSAGES.targetCards(cardCount);
  return z.number(message).int(message).min(1, message).max(cardCount, message);
}

const page = { pageSize: pageSize(SHARED_DECK_PAGE_SIZE), cursor: cursor.nullish() };
export const listDecksInput = z.object({ organizationId, ...page });
export const deckInput = z.object({ deckId: entityId('Deck') });
export const publishDeckInput = z.object({
  organizationId,
  teamId: z.string().trim().max(64).optional(),
  ...deckFields.shape,
  tagId: deckFields.shape.tagId.max(64),
});
export const createAssignmentInput = z.object({
  organizationId,
  deckId: entityId('Deck'),
  teamId: z.string().trim().max(64).optional(),
  ...assignmentTerms.shape,
  targetValue: z.number().positive().max(DECK_CARD_LIMIT),
});
export const assignmentInput = z.object({ assignmentId: entityId('Assignment') });
export const listAssignmentsInput = z.object({ organizationId: organizationId.optional(), ...page }).optional();
export const progressInput = z.object({ organizationId, assignmentId: entityId('Assignment').optional(), ...page });

export type PublishDeckInput = z.infer<typeof publishDeckInput>;
export type CreateAssignmentInput = z.infer<typeof createAssignmentInput>;

/** The domain reasons of the organizations service's refusals (tRPC error data), which the web app shows in
 * the user's language. */
export const SHARED_DECK_REASONS = {
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
export type SharedDeckReason = (typeof SHARED_DECK_REASONS)[keyof typeof SHARED_DECK_REASONS];

/** Each input rule of a deck or an assignment (a key of DECK_MESSAGES): the field it checks and the reason
 * its refusal carries. */
const LEARNING_RULES = {
  nameRequired: { field: 'name', reason: SHARED_DECK_REASONS.deckNameRequired },
  nameTooLong: { field: 'name', reason: SHARED_DECK_REASONS.deckNameTooLong },
  descriptionTooLong: { field: 'description', reason: SHARED_DECK_REASONS.deckDescriptionTooLong },
  tagRequired: { field: 'tagId', reason: SHARED_DECK_REASONS.tagRequired },
  dueDateRequired: { field: 'dueAt', reason: SHARED_DECK_REASONS.dueDateRequired },
  dueDatePast: { field: 'dueAt', reason: SHARED_DECK_REASONS.dueDatePast },
  targetKind: { field: 'targetKind', reason: SHARED_DECK_REASONS.targetKindInvalid },
  targetCards: { field: 'targetValue', reason: SHARED_DECK_REASONS.targetValueInvalid },
  retentionRange: { field: 'targetValue', reason: SHARED_DECK_REASONS.targetValueInvalid },
} as const satisfies Record<keyof typeof DECK_MESSAGES, { field: string; reason: SharedDeckReason }>;

export type LearningRule = keyof typeof LEARNING_RULES;
export type LearningField = (typeof LEARNING_RULES)[LearningRule]['field'];
export type LearningRuleReason = (typeof LEARNING_RULES)[LearningRule]['reason'];

/** Why a deck's or an assignment's input is refused: the rule, the field it concerns, the reason the
 * service's refusal carries (which the web app shows in the user's language) and the words in English. */
export interface LearningProblem {
  rule: LearningRule;
  field: LearningField;
  reason: LearningRuleReason;
  message: string;
  /** A targetCards problem's upper bound: the deck's number of cards. */
  max?: number;
}

/** Input read with its rules: its value, or its problems, the first of each field, in the fields' order. */
export type Checked<T> = { value: T; problems?: undefined } | { value?: undefined; problems: LearningProblem[] };

function problem(rule: LearningRule, max?: number): LearningProblem {
  const text = DECK_MESSAGES[rule];
  const message = typeof text === 'function' ? text(max ?? 0) : text;
  return { rule, ...LEARNING_RULES[rule], message, ...(max !== undefined && { max }) };
}

const RULE_OF_MESSAGE = new Map<string, LearningRule>(
  Object.entries(DECK_MESSAGES).flatMap(([rule, text]) =>
    typeof text === 'string' ? [[text, rule as LearningRule] as const] : [],
  ),
);

/** The problems of zod issues raised by checks that name a rule's message (the first per field). */
function problemsOf(issues: readonly { message: string }[]): LearningProblem[] {
  const problems: LearningProblem[] = [];
  for (const issue of issues) {
    const rule = RULE_OF_MESSAGE.get(issue.message);
    if (rule === undefined) throw new Error(`No learning rule says "${issue.message}".`);
    if (!problems.some((found) => found.field === LEARNING_RULES[rule].field)) problems.push(problem(rule));
  }
  return problems;
}

/** A deck's fields, as PublishDeck keeps them and the share form checks them. */
export function checkDeck(input: z.input<typeof deckFields>): Checked<DeckFields> {
  const result = deckFields.safeParse(input);
  return result.success ? { value: result.data } : { problems: problemsOf(result.error.issues) };
}

/** What CreateAssignment takes and the assign form checks: a due date after `now`, a target kind, and a
 * target value that kind allows for a deck of `cardCount` cards. */
export function checkAssignment(
  input: { dueAt: string; targetKind: string; targetValue: number },
  context: { cardCount: number; now: number },
): Checked<{ dueAt: Date; targetKind: AssignmentTargetKind; targetValue: number }> {
  const terms = assignmentTerms.safeParse(input);
  const problems = terms.success ? [] : problemsOf(terms.error.issues);
  const dueAt = new Date(input.dueAt);
  if (!problems.some((found) => found.field === 'dueAt') && dueAt.getTime() <= context.now) {
    problems.unshift(problem('dueDatePast'));
  }
  const kind = ASSIGNMENT_TARGET_KINDS.find((known) => known === input.targetKind);
  if (kind && !targetValue(kind, context.cardCount).safeParse(input.targetValue).success) {
    problems.push(kind === 'retention' ? problem('retentionRange') : problem('targetCards', context.cardCount));
  }
  if (!kind || problems.length > 0) return { problems };
  return { value: { dueAt, targetKind: kind, targetValue: input.targetValue } };
}
