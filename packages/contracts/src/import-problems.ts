// What an import skipped, or why it failed, as a reason and its values, so each reader words it in their own
// language (the web app's messages `import_problem_<reason>`); the English wording here is what the API's
// `message` carries beside them, for readers without the reason. One catalogue for CSV rows, Anki notes and
// their files, and the refusals of a whole file.
import { backIsOptional, CARD_SIDE_MAX_LENGTH, frontMaxLength } from './cards.ts';
import { CARD_CONTENT_PROBLEMS, type CardContentProblem, CLOZE_PROBLEMS, cardContentProblem } from './cloze.ts';
import type { CardType } from './learning.ts';
import { OCCLUSION_PROBLEMS } from './occlusion.ts';

const count = (value: string) => Number(value).toLocaleString('en');

/** Why an Anki package was refused (@engram/anki's AnkiPackageError codes), in English. */
export const ANKI_PACKAGE_PROBLEMS = {
  notZip: 'This file is not an Anki package (.apkg or .colpkg).',
  zipBomb: 'This Anki package unpacks to more data than we accept, so it was not imported.',
  tooManyFiles: 'This Anki package holds more files than we accept, so it was not imported.',
  unsafeName: 'This Anki package contains a file with an unsafe name, so it was not imported.',
  mediaTooLarge: 'This Anki package contains a media file larger than we accept, so it was not imported.',
  corruptDatabase: 'The collection inside this Anki package is damaged and cannot be read.',
  // How imports before per-note limits were refused; their rows still say so. A note too large is now left out alone.
  fieldTooLarge: 'A note in this Anki package has a field larger than we accept, so it was not imported.',
  // A collection whose schema is not one Anki writes (@engram/anki/collection-shape): refused before it is read.
  schemaView: 'This Anki package holds a view in its collection, which Anki never writes, so it was not imported.',
  schemaTrigger:
    'This Anki package holds a trigger in its collection, which Anki never writes, so it was not imported.',
  schemaVirtualTable:
    'This Anki package holds a virtual table in its collection, which Anki never writes, so it was not imported.',
  schemaGeneratedColumn:
    'This Anki package holds a computed (generated) column in its collection, which Anki never writes, so it was not imported.',
  schemaUnknown:
    'This Anki package holds tables, columns or rules in its collection that Anki does not write, so it was not imported.',
  noteTypesTooLarge: 'The note types and decks of this Anki package are larger than we accept, so it was not imported.',
  unknownLayout: 'This Anki package was made in a format we do not know. Export it again from a current Anki.',
  corruptMedia: 'The media list inside this Anki package is damaged and cannot be read.',
} as const;
type AnkiPackageProblem = keyof typeof ANKI_PACKAGE_PROBLEMS;

const packageProblems = () =>
  Object.fromEntries(Object.entries(ANKI_PACKAGE_PROBLEMS).map(([code, text]) => [code, () => text])) as Record<
    AnkiPackageProblem,
    () => string
  >;

/** Each reason's English wording, from its values (all strings; numbers as digits). */
export const IMPORT_PROBLEMS = {
  // A CSV row or an Anki note that cannot be a card.
  typeUnknown: ({ type }: { type: string }) => `The type "${type}" is not basic, reversed, cloze, typed or occlusion.`,
  frontEmpty: () => 'The front is empty.',
  backEmpty: () => 'The back is empty.',
  backEmptySplit: () => 'The back is empty: with no back column, a line of --- parts the front from the back.',
  frontTooLong: ({ max }: { max: string }) => `The front is longer than ${count(max)} characters.`,
  backTooLong: ({ max }: { max: string }) => `The back is longer than ${count(max)} characters.`,
  clozeNoDeletion: () => CLOZE_PROBLEMS.noDeletion,
  clozeNumberZero: () => CLOZE_PROBLEMS.numberZero,
  clozeEmptyDeletion: () => CLOZE_PROBLEMS.emptyDeletion,
  clozeTooManyDeletions: () => CLOZE_PROBLEMS.tooManyDeletions,
  occlusionMissing: () => OCCLUSION_PROBLEMS.noOcclusion,
  occlusionNoPicture: () => OCCLUSION_PROBLEMS.noPicture,
  occlusionNoShape: () => OCCLUSION_PROBLEMS.noShape,
  occlusionTooManyCards: () => OCCLUSION_PROBLEMS.tooManyCards,
  occlusionTooManyShapes: () => OCCLUSION_PROBLEMS.tooManyShapes,
  noteTypeMissing: () => 'Its note type is missing from the package.',
  noteNoCard: () => "None of its note type's card templates asks any of its fields.",
  frontTooLongLinked: ({ max }: { max: string }) =>
    `Its front is longer than ${count(max)} characters once its files are linked.`,
  backTooLongLinked: ({ max }: { max: string }) =>
    `Its back is longer than ${count(max)} characters once its files are linked.`,
  sameNote: () => 'Another note of the package has the same id.',
  noteTooLarge: ({ limit }: { limit: string }) =>
    `The note is larger than ${limit} with its cards and reviews, so it was left out.`,
  clozeAsBasic: () => 'It is a cloze note without a deletion, so it came in as a basic card.',
  tagsLeftOff: ({ tags }: { tags: string }) =>
    `Some tags were left off, being too long or too many for a card: ${tags}.`,
  reviewsInFuture: ({ count: reviews }: { count: string }) =>
    `Reviews dated in the future were left out (${count(reviews)}): the clock of the device that made them was ahead.`,
  // An Anki package's file a note shows.
  fileMissing: ({ name }: { name: string }) => `The file "${name}" is not in the package, so it was left out.`,
  fileNotMedia: ({ name }: { name: string }) =>
    `The file "${name}" is not an image or a sound a card can hold, so it was left out.`,
  fileTooLarge: ({ name, limit }: { name: string; limit: string }) =>
    `The file "${name}" is larger than a card's ${limit}, so it was left out.`,
  fileUnreadable: ({ name }: { name: string }) =>
    `The file "${name}" was left out: it could not be read as the image or sound its name says.`,
  // The whole file refused: nothing was imported.
  uploadGone: () => 'The file to import is no longer there. Please send it again.',
  frontColumnMissing: () => 'Choose the column that holds the front of the cards.',
  quotaReached: ({ quota, used }: { quota: string; used: string }) =>
    `The images and sounds of this collection do not fit in your storage: your plan keeps ${quota} of them ` +
    `(${used} used). Delete files you no longer use, or choose a larger plan, and import it again.`,
  unreadable: () => 'The file could not be imported: it is not a readable CSV, TSV or Anki file.',
  // The import's own process ended before it did (docs/architecture.md#bulkheads): nothing was imported.
  importOutOfMemory: () =>
    'This file needs more memory to import than we allow one import, so it was stopped and nothing was imported.',
  importTimedOut: ({ minutes }: { minutes: string }) =>
    `This import took longer than the ${minutes} minutes we allow one import, so it was stopped and nothing was imported.`,
  importCrashed: () => 'This import stopped unexpectedly and nothing was imported. Please try it again.',
  importGaveUp: ({ attempts }: { attempts: string }) =>
    `This import failed ${attempts} times, so we stopped trying. Nothing was imported; please try it again later.`,
  ...packageProblems(),
} as const;

export type ImportProblemReason = keyof typeof IMPORT_PROBLEMS;
export type ImportProblemValues<R extends ImportProblemReason> = Parameters<(typeof IMPORT_PROBLEMS)[R]>[0];

/** A problem as imports keep and answer it: the reason, its values and the English wording. */
export interface ImportProblemWords {
  reason: ImportProblemReason;
  values: Record<string, string>;
  message: string;
}

/** The problem `reason` with its `values` (none for a reason that has none). */
export function importProblem<R extends ImportProblemReason>(
  reason: R,
  ...[values]: ImportProblemValues<R> extends undefined ? [] : [ImportProblemValues<R>]
): ImportProblemWords {
  const given = (values ?? {}) as Record<string, string>;
  const wording = IMPORT_PROBLEMS[reason] as (values: Record<string, string>) => string;
  return { reason, values: given, message: wording(given) };
}

export const isImportProblemReason = (reason: string): reason is ImportProblemReason =>
  Object.hasOwn(IMPORT_PROBLEMS, reason);

const CONTENT_REASONS: Record<CardContentProblem, ImportProblemReason> = {
  noDeletion: 'clozeNoDeletion',
  numberZero: 'clozeNumberZero',
  emptyDeletion: 'clozeEmptyDeletion',
  tooManyDeletions: 'clozeTooManyDeletions',
  noOcclusion: 'occlusionMissing',
  noPicture: 'occlusionNoPicture',
  noShape: 'occlusionNoShape',
  tooManyCards: 'occlusionTooManyCards',
  tooManyShapes: 'occlusionTooManyShapes',
};

/** Why a card of `type` with these sides cannot be one of Engram's (empty, too long, a cloze without deletions). */
export function sidesProblem(type: CardType, front: string, back: string): ImportProblemWords | undefined {
  const max = String(CARD_SIDE_MAX_LENGTH);
  if (front.trim() === '') return importProblem('frontEmpty');
  if (!backIsOptional(type) && back.trim() === '') return importProblem('backEmpty');
  if (front.length > frontMaxLength(type)) return importProblem('frontTooLong', { max: String(frontMaxLength(type)) });
  if (back.length > CARD_SIDE_MAX_LENGTH) return importProblem('backTooLong', { max });
  const content = cardContentProblem(type, front);
  return content
    ? { reason: CONTENT_REASONS[content], values: {}, message: CARD_CONTENT_PROBLEMS[content] }
    : undefined;
}
