// An import row as ImportService answers it.
import type { Import as ProtoImport } from '@engram/proto/cards/v1/imports';
import type { Import } from '../generated/prisma/client.js';
import type { ImportCounts, ImportProblem } from './import-deps.js';

const NO_COUNTS: ImportCounts = { notes: 0, cards: 0, reviews: 0, media: 0, skipped: 0 };

export function toProtoImport(row: Import): ProtoImport {
  const counts = { ...NO_COUNTS, ...(row.counts as Partial<ImportCounts>) };
  const problems = (row.problems as ImportProblem[] | null) ?? [];
  return {
    id: row.id,
    name: row.name,
    format: row.format,
    status: row.status,
    progressDone: row.progressDone,
    progressTotal: row.progressTotal,
    counts,
    problems: problems.map((problem) => ({
      line: problem.line ?? 0,
      message: problem.message,
      reason: problem.reason ?? '',
      values: problem.values ?? {},
    })),
    createdAt: row.createdAt,
    finishedAt: row.finishedAt ?? undefined,
  };
}
