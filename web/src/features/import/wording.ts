// How the import screen words numbers and a file's layout in the current language: "1,200 of 4,000
// notes" under the progress bar (rows for a CSV or TSV file, notes for an Anki package), the delimiter the
// preview found, a problem with its line ("Line 4: The front is empty.").
import type { ImportProblemReason } from '@engram/contracts/import-problems';
import type { ImportJson } from '@engram/gateway/router';
import { getLocale, m } from '../../lib/i18n';
import { contentProblemText } from '../../lib/validation';

/** A whole number as the reader writes it: "4,000" in English, "4.000" in Portuguese. */
export const formatCount = (count: number, locale: string = getLocale()) => new Intl.NumberFormat(locale).format(count);

/** What the bar under a running import says, or the wait before there is anything to count. */
export function progressText(current: Pick<ImportJson, 'status' | 'format' | 'progress'>): string {
  const { done, total } = current.progress;
  if (total <= 0 && current.status !== 'done') {
    return current.status === 'queued' ? m.import_waiting() : m.import_starting();
  }
  const values = { done: formatCount(done), total: formatCount(total) };
  return current.format === 'csv' || current.format === 'tsv'
    ? m.import_progress_rows(values)
    : m.import_progress_notes(values);
}

const DELIMITERS: Record<string, () => string> = {
  ',': m.import_delimiter_comma,
  ';': m.import_delimiter_semicolon,
  '\t': m.import_delimiter_tab,
  '|': m.import_delimiter_pipe,
};

/** The delimiter a preview found, named ("semicolons"). */
export const delimiterName = (delimiter: string) =>
  DELIMITERS[delimiter]?.() ?? m.import_delimiter_other({ delimiter });

type Problem = ImportJson['problems'][number];
type Values = Record<string, string>;
const count = (value: string | undefined) => formatCount(Number(value ?? 0));

/** Each reason of contracts' import-problems in the current language (the API's `message` is English). */
const PROBLEM_WORDS: Record<ImportProblemReason, (values: Values) => string> = {
  typeUnknown: ({ type = '' }) => m.import_problem_typeUnknown({ type }),
  frontEmpty: () => m.import_problem_frontEmpty(),
  backEmpty: () => m.import_problem_backEmpty(),
  backEmptySplit: () => m.import_problem_backEmptySplit(),
  frontTooLong: ({ max }) => m.import_problem_frontTooLong({ max: count(max) }),
  backTooLong: ({ max }) => m.import_problem_backTooLong({ max: count(max) }),
  clozeNoDeletion: () => contentProblemText('noDeletion'),
  clozeNumberZero: () => contentProblemText('numberZero'),
  clozeEmptyDeletion: () => contentProblemText('emptyDeletion'),
  clozeTooManyDeletions: () => contentProblemText('tooManyDeletions'),
  occlusionMissing: () => contentProblemText('noOcclusion'),
  occlusionNoPicture: () => contentProblemText('noPicture'),
  occlusionNoShape: () => contentProblemText('noShape'),
  occlusionTooManyCards: () => contentProblemText('tooManyCards'),
  occlusionTooManyShapes: () => contentProblemText('tooManyShapes'),
  noteTypeMissing: () => m.import_problem_noteTypeMissing(),
  noteNoCard: () => m.import_problem_noteNoCard(),
  frontTooLongLinked: ({ max }) => m.import_problem_frontTooLongLinked({ max: count(max) }),
  backTooLongLinked: ({ max }) => m.import_problem_backTooLongLinked({ max: count(max) }),
  sameNote: () => m.import_problem_sameNote(),
  noteTooLarge: ({ limit = '' }) => m.import_problem_noteTooLarge({ limit }),
  clozeAsBasic: () => m.import_problem_clozeAsBasic(),
  tagsLeftOff: ({ tags = '' }) => m.import_problem_tagsLeftOff({ tags }),
  reviewsInFuture: ({ count: reviews }) => m.import_problem_reviewsInFuture({ count: count(reviews) }),
  fileMissing: ({ name = '' }) => m.import_problem_fileMissing({ name }),
  fileNotMedia: ({ name = '' }) => m.import_problem_fileNotMedia({ name }),
  fileTooLarge: ({ name = '', limit = '' }) => m.import_problem_fileTooLarge({ name, limit }),
  fileUnreadable: ({ name = '' }) => m.import_problem_fileUnreadable({ name }),
  uploadGone: () => m.import_problem_uploadGone(),
  frontColumnMissing: () => m.import_problem_frontColumnMissing(),
  quotaReached: ({ quota = '', used = '' }) => m.import_problem_quotaReached({ quota, used }),
  unreadable: () => m.import_problem_unreadable(),
  importOutOfMemory: () => m.import_problem_importOutOfMemory(),
  importTimedOut: ({ minutes = '' }) => m.import_problem_importTimedOut({ minutes }),
  importCrashed: () => m.import_problem_importCrashed(),
  importGaveUp: ({ attempts = '' }) => m.import_problem_importGaveUp({ attempts: count(attempts) }),
  notZip: () => m.import_problem_notZip(),
  zipBomb: () => m.import_problem_zipBomb(),
  tooManyFiles: () => m.import_problem_tooManyFiles(),
  unsafeName: () => m.import_problem_unsafeName(),
  mediaTooLarge: () => m.import_problem_mediaTooLarge(),
  corruptDatabase: () => m.import_problem_corruptDatabase(),
  fieldTooLarge: () => m.import_problem_fieldTooLarge(),
  unknownLayout: () => m.import_problem_unknownLayout(),
  corruptMedia: () => m.import_problem_corruptMedia(),
  schemaView: () => m.import_problem_schemaView(),
  schemaTrigger: () => m.import_problem_schemaTrigger(),
  schemaVirtualTable: () => m.import_problem_schemaVirtualTable(),
  schemaGeneratedColumn: () => m.import_problem_schemaGeneratedColumn(),
  schemaUnknown: () => m.import_problem_schemaUnknown(),
  noteTypesTooLarge: () => m.import_problem_noteTypesTooLarge(),
};

/** What an import skipped or failed on, in the current language (the English message for a reason unknown here). */
export const problemWords = (problem: Pick<Problem, 'message' | 'reason' | 'values'>) =>
  problem.reason ? PROBLEM_WORDS[problem.reason](problem.values ?? {}) : problem.message;

/** One thing an import skipped or failed on, with its line when it is a line's. */
export const problemText = (problem: Problem) =>
  problem.line === undefined
    ? problemWords(problem)
    : m.import_problem_line({ line: problem.line, message: problemWords(problem) });

/** Whether an import has come to its end (nothing more to poll). */
export const isOver = (current: Pick<ImportJson, 'status'> | undefined) =>
  current?.status === 'done' || current?.status === 'failed';
