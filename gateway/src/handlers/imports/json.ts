// An import as the web app reads it (the API's public shape, issue "bring your collection").
import { type ImportProblemReason, isImportProblemReason } from '@engram/contracts/import-problems';
import type { ImportStatus } from '@engram/contracts/imports';
import type { Import } from '@engram/proto/cards/v1/imports';

export interface ImportJson {
  id: string;
  name: string;
  format: string;
  status: ImportStatus;
  progress: { done: number; total: number };
  counts: { notes: number; cards: number; reviews: number; media: number; skipped: number };
  /**
   * What was skipped or went wrong; `line` names the file's line (or the note's position) when it is one's;
   * `reason` and `values` (@engram/contracts/import-problems) let the app word it in the learner's language,
   * `message` is English.
   */
  problems: { line?: number; message: string; reason?: ImportProblemReason; values?: Record<string, string> }[];
  createdAt: string;
  finishedAt: string | null;
}

const STATUSES: readonly string[] = ['queued', 'running', 'done', 'failed'] satisfies ImportStatus[];

export const importJson = (answer: Import): ImportJson => ({
  id: answer.id,
  name: answer.name,
  format: answer.format,
  status: (STATUSES.includes(answer.status) ? answer.status : 'queued') as ImportStatus,
  progress: { done: answer.progressDone, total: answer.progressTotal },
  counts: {
    notes: answer.counts?.notes ?? 0,
    cards: answer.counts?.cards ?? 0,
    reviews: answer.counts?.reviews ?? 0,
    media: answer.counts?.media ?? 0,
    skipped: answer.counts?.skipped ?? 0,
  },
  problems: answer.problems.map((problem) => ({
    ...(problem.line > 0 && { line: problem.line }),
    message: problem.message,
    ...(isImportProblemReason(problem.reason) && { reason: problem.reason, values: problem.values }),
  })),
  createdAt: answer.createdAt?.toISOString() ?? '',
  finishedAt: answer.finishedAt?.toISOString() ?? null,
});
