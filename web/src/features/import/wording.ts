// How the import screen words numbers and a file's layout in the current language: "1,200 of 4,000
// notes" under the progress bar (rows for a CSV or TSV file, notes for an Anki package), the delimiter the
// preview found, a problem with its line ("Line 4: The front is empty.").
import type { ImportJson } from '@engram/gateway/router';
import { getLocale, m } from '../../lib/i18n';

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

/** One thing an import skipped or failed on, with its line when it is a line's. */
export const problemText = (problem: ImportJson['problems'][number]) =>
  problem.line === undefined
    ? problem.message
    : m.import_problem_line({ line: problem.line, message: problem.message });

/** Whether an import has come to its end (nothing more to poll). */
export const isOver = (current: Pick<ImportJson, 'status'> | undefined) =>
  current?.status === 'done' || current?.status === 'failed';
