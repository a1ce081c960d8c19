// The learning loop's shared shapes and limits: card types, ratings, tags, reviews and the learner's
// scheduling settings. The web app's forms, the gateway's procedures and the cards service all read them.
import { z } from './zod.ts';

/** The longest front or back of a card (or field of a note), in characters. */
export const CARD_SIDE_MAX_LENGTH = 2000;

/** typed: a basic card whose back the learner types before it is shown (Anki's "Basic (type in the answer)");
 * occlusion: a picture with shapes hiding its parts, one review item per group of shapes (occlusion.ts);
 * note: a note of one of the learner's note types (or of Basic (optional reversed card)), whose fields and card
 * templates make its review items (note-types.ts). */
export const CARD_TYPES = ['basic', 'reversed', 'cloze', 'typed', 'occlusion', 'note'] as const;
export type CardType = (typeof CARD_TYPES)[number];
/** The types a card is written in front and back as; a note is written in the fields of its note type. */
export const SIDED_CARD_TYPES = [
  'basic',
  'reversed',
  'cloze',
  'typed',
  'occlusion',
] as const satisfies readonly CardType[];

/** Review ratings, in the order FSRS numbers them (1–4). */
export const RATINGS = ['again', 'hard', 'good', 'easy'] as const;
export type RatingName = (typeof RATINGS)[number];

export const REVIEW_STATES = ['new', 'learning', 'review', 'relearning'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const TAG_NAME_MAX_LENGTH = 40;
/** The most tags one card may carry, and the most tags one filter may name. */
export const MAX_TAGS_PER_CARD = 20;
/** A card is a leech once it has been forgotten this many times; it is then tagged LEECH_TAG_NAME. */
export const LEECH_LAPSES = 8;
export const LEECH_TAG_NAME = 'leech';
/** cards.createMany takes at most this many cards, in one transaction. */
export const CREATE_MANY_MAX = 500;
/** The longest a learner may look at one card before the duration stops meaning anything. */
export const REVIEW_DURATION_MAX_MS = 3_600_000;
/**
 * Anki's learn-ahead limit: a practice session goes on while an item it rated falls due within this many
 * minutes, so a learning step of 10 minutes comes back in the session instead of after it.
 */
export const LEARN_AHEAD_MINUTES = 20;

export const uuid = (what: string) => z.uuid(`${what} is not valid.`);

export const tagName = z
  .string()
  .trim()
  .min(1, 'Tag name is required.')
  .max(TAG_NAME_MAX_LENGTH, `Tag name must be at most ${TAG_NAME_MAX_LENGTH} characters.`);

export const tagIds = z.array(uuid('Tag id')).max(MAX_TAGS_PER_CARD, `At most ${MAX_TAGS_PER_CARD} tags.`);

// A (re)learning step: a whole number of minutes, hours or days, as FSRS takes them ("1m", "10m", "1d").
const step = z.string().regex(/^[1-9]\d{0,4}[mhd]$/, 'A step is a number followed by m, h or d, like 10m.');

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const timezone = z
  .string()
  .min(1, 'Timezone is required.')
  .max(64)
  .refine(isTimeZone, 'Timezone is not a known IANA timezone.');

/** The learner's scheduling settings, with the defaults of a new learner. */
export const DEFAULT_SETTINGS = {
  timezone: 'UTC',
  dayStartHour: 4,
  desiredRetention: 0.9,
  maximumIntervalDays: 36_500,
  learningSteps: ['1m', '10m'],
  relearningSteps: ['10m'],
  fuzz: true,
  dailyGoal: 20,
  /**
   * How much of a usual day's reviews each day of the week takes, Monday first: 1 a usual day, 0.5 a lighter one,
   * 0 a day off. Within what fuzz allows, reviews are steered away from lighter days.
   */
  easyDays: [1, 1, 1, 1, 1, 1, 1] as number[],
  /** Among the days fuzz allows, a review goes to the least loaded one. */
  loadBalance: true,
};

/** What a learner's default preset starts with, besides the desired retention of DEFAULT_SETTINGS. */
export const PRESET_DEFAULTS = {
  name: 'Default',
  newPerDay: 20,
  reviewsPerDay: 200,
};

export const settingsFields = {
  timezone,
  dayStartHour: z
    .number()
    .int()
    .min(0, 'Day start is an hour from 0 to 23.')
    .max(23, 'Day start is an hour from 0 to 23.'),
  desiredRetention: z
    .number()
    .min(0.7, 'Desired retention must be between 0.70 and 0.99.')
    .max(0.99, 'Desired retention must be between 0.70 and 0.99.'),
  maximumIntervalDays: z
    .number()
    .int()
    .min(1, 'Maximum interval must be between 1 and 36500 days.')
    .max(36_500, 'Maximum interval must be between 1 and 36500 days.'),
  learningSteps: z.array(step).max(10, 'At most 10 learning steps.'),
  relearningSteps: z.array(step).max(10, 'At most 10 relearning steps.'),
  fuzz: z.boolean(),
  easyDays: z
    .array(z.number().min(0, 'Each easy day is a share from 0 to 1.').max(1, 'Each easy day is a share from 0 to 1.'))
    .length(7, 'Easy days are seven numbers, Monday first.'),
  loadBalance: z.boolean(),
  dailyGoal: z
    .number()
    .int()
    .min(1, 'Daily goal must be between 1 and 1000.')
    .max(1000, 'Daily goal must be between 1 and 1000.'),
};

export const settingsUpdateInput = z
  .object(settingsFields)
  .partial()
  .refine((value) => Object.keys(value).length > 0, 'Give at least one setting to change.');
export type SettingsUpdateInput = z.infer<typeof settingsUpdateInput>;

export type Settings = typeof DEFAULT_SETTINGS;

// /practice/new loads all due cards, with no input at all.
export const listDueInput = z.object({ tagIds: tagIds.optional() }).default({});

export const reviewInput = z.object({
  id: uuid('Review item id'),
  rating: z.enum(RATINGS, 'Rating must be again, hard, good or easy.'),
  reviewId: uuid('Review id'),
  durationMs: z
    .number()
    .int()
    .min(0, 'Duration must not be negative.')
    .transform((ms) => Math.min(ms, REVIEW_DURATION_MAX_MS)),
});
export type ReviewInput = z.infer<typeof reviewInput>;

/** Why a review was refused (the domain reason the web app words in the user's language). */
export const REVIEW_REASONS = {
  /** The card is archived: it is out of practice until it is unarchived. */
  cardArchived: 'CARD_ARCHIVED',
} as const;

/** The words of REVIEW_REASONS.cardArchived, as the service answers them. */
export const CARD_ARCHIVED_MESSAGE = 'This card is archived. Unarchive it to review it again.';

export const undoReviewInput = z.object({ reviewId: uuid('Review id') });

export const completeOnboardingInput = z.object({
  timezone,
  dailyGoal: settingsFields.dailyGoal.optional(),
  dayStartHour: settingsFields.dayStartHour.optional(),
});

// The practice routes' search params live in ./search.ts (without zod, small enough for the web app's entry).
export { practiceDoneSearch, practiceSessionSearch, SEARCH_QUERY_MAX_LENGTH } from './search.ts';
