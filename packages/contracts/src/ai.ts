// Card generation's shared shapes and limits: the web app's Generate form, the gateway's ai procedures
// and the ai service's own checks read them, so each limit is written once.

import type { CardType } from './learning.ts';
import { z } from './zod.ts';

/** The card types generation proposes (a learner may turn a proposal into a typed-answer card before saving it). */
export const GENERATED_CARD_TYPES = ['basic', 'reversed', 'cloze'] as const satisfies readonly CardType[];
export type GeneratedCardType = (typeof GENERATED_CARD_TYPES)[number];
const generatedType = z.enum(GENERATED_CARD_TYPES, 'Card type must be basic, reversed or cloze.');

/** The most cards one generation may propose, and how many it proposes when not told. */
export const GENERATE_COUNT_MAX = 50;
export const GENERATE_COUNT_DEFAULT = 10;
/** Pasted notes or an uploaded file's text: at least a sentence, at most about 30 pages of prose. */
export const NOTES_MIN_LENGTH = 20;
export const NOTES_MAX_LENGTH = 60_000;
export const FOCUS_MAX_LENGTH = 200;
/** Uploads: .md, .txt and PDF, at most 3 MB (under gRPC's 4 MB messages) and, for a PDF, 50 pages. */
export const UPLOAD_MAX_BYTES = 3 * 1024 * 1024;
export const UPLOAD_MAX_PAGES = 50;
/** A generated card's sides, and the quote of the notes it keeps. */
export const GENERATED_FRONT_MAX_LENGTH = 300;
export const GENERATED_BACK_MAX_LENGTH = 800;
export const SOURCE_QUOTE_MAX_LENGTH = 300;
export const GENERATED_TAGS_MAX = 5;

/** Which generator serves a deployment: Bedrock, or the offline one without AWS settings. */
export const GENERATORS = ['bedrock', 'offline'] as const;
export type GeneratorName = (typeof GENERATORS)[number];

/** The reasons ai's refusals carry to the web app (error data `reason`). */
export const AI_REASONS = {
  usageLimitReached: 'USAGE_LIMIT_REACHED',
  fileNotFound: 'FILE_NOT_FOUND',
  unsupportedFile: 'UNSUPPORTED_FILE',
  fileTooLarge: 'FILE_TOO_LARGE',
  /** A file that unpacks to too much, or needs too much memory or time to read (a decompression bomb). */
  fileTooComplex: 'FILE_TOO_COMPLEX',
  uploadQuotaReached: 'UPLOAD_QUOTA_REACHED',
  notesInvalid: 'NOTES_INVALID',
  modelUnavailable: 'MODEL_UNAVAILABLE',
} as const;

export const language = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'Language must be a language tag such as en or pt-BR.');

const notes = z
  .string()
  .trim()
  .min(NOTES_MIN_LENGTH, `Notes must be at least ${NOTES_MIN_LENGTH} characters.`)
  .max(NOTES_MAX_LENGTH, `Notes must be at most ${NOTES_MAX_LENGTH.toLocaleString('en')} characters.`);

/** ai.generate: notes or an uploaded file, and the options. */
export const generateInput = z
  .object({
    notes: notes.optional(),
    fileId: z.uuid('The file is not valid.').optional(),
    count: z
      .number()
      .int('Number of cards must be a whole number.')
      .min(1, 'Ask for at least 1 card.')
      .max(GENERATE_COUNT_MAX, `Ask for at most ${GENERATE_COUNT_MAX} cards.`)
      .optional(),
    types: z.array(generatedType).max(GENERATED_CARD_TYPES.length).optional(),
    language: language.optional(),
    focus: z.string().trim().max(FOCUS_MAX_LENGTH, `Focus must be at most ${FOCUS_MAX_LENGTH} characters.`).optional(),
  })
  .refine((input) => (input.notes === undefined) !== (input.fileId === undefined), {
    message: 'Paste notes or upload a file.',
    path: ['notes'],
  });
export type GenerateInput = z.infer<typeof generateInput>;

/** The files generation reads, by their name's extension, and what each holds. */
const UPLOAD_KINDS = { '.md': 'markdown', '.markdown': 'markdown', '.txt': 'text', '.pdf': 'pdf' } as const;
export const UPLOAD_EXTENSIONS = Object.keys(UPLOAD_KINDS) as (keyof typeof UPLOAD_KINDS)[];

/** What a file of this name holds for generation, or undefined when generation does not read it. */
export function uploadKind(fileName: string): (typeof UPLOAD_KINDS)[keyof typeof UPLOAD_KINDS] | undefined {
  const lower = fileName.toLowerCase();
  const extension = lower.slice(lower.lastIndexOf('.'));
  return lower.includes('.') && Object.hasOwn(UPLOAD_KINDS, extension)
    ? UPLOAD_KINDS[extension as keyof typeof UPLOAD_KINDS]
    : undefined;
}

/** What cards.generationUsage answers. */
export interface GenerationUsage {
  used: number;
  limit: number;
  resetsAt: string;
  plan: string;
  generator: GeneratorName;
}

/** Occlusion proposals: the most shapes one picture gets, and the largest picture sent (the web app sends it
 * scaled to OCCLUSION_PICTURE_MAX_SIDE pixels at most, as a JPEG). Each proposal counts as this many cards. */
export const OCCLUSION_PROPOSALS_MAX = 20;
export const OCCLUSION_PICTURE_MAX_BYTES = 2 * 1024 * 1024;
export const OCCLUSION_PICTURE_MAX_SIDE = 1024;

/** One shape proposed over a picture: a box in fractions of the picture, and what it hides (may be empty). */
export const proposedShape = z.object({
  label: z.string().trim().max(100),
  left: z.number().min(0).max(1),
  top: z.number().min(0).max(1),
  width: z.number().gt(0).max(1),
  height: z.number().gt(0).max(1),
});
export type ProposedShape = z.infer<typeof proposedShape>;

/** The language of the labels an occlusion proposal writes, when the learner says. */
export const proposeOcclusionsInput = z.object({ language: language.optional() });
