// An export as the web app reads it (the API's public shape, issue "bring your collection").
import type { ExportStatus } from '@engram/contracts/exports';
import type { Export } from '@engram/proto/cards/v1/exports';

export interface ExportJson {
  id: string;
  format: 'apkg' | 'csv' | 'json';
  status: ExportStatus;
  progress: { done: number; total: number };
  /** Why it failed, in words for the learner. */
  failure: string | null;
  fileName: string;
  size: number;
  /** While done and not expired: a link that downloads the file for a few minutes. */
  url?: string;
  createdAt: string;
  finishedAt: string | null;
  expiresAt: string | null;
}

const STATUSES: readonly string[] = ['queued', 'running', 'done', 'failed', 'expired'] satisfies ExportStatus[];
const FORMATS: readonly string[] = ['apkg', 'csv', 'json'];

export const exportJson = (answer: Export): ExportJson => ({
  id: answer.id,
  format: (FORMATS.includes(answer.format) ? answer.format : 'json') as ExportJson['format'],
  status: (STATUSES.includes(answer.status) ? answer.status : 'queued') as ExportStatus,
  progress: { done: answer.progressDone, total: answer.progressTotal },
  failure: answer.failure || null,
  fileName: answer.fileName,
  size: answer.size,
  ...(answer.url && { url: answer.url }),
  createdAt: answer.createdAt?.toISOString() ?? '',
  finishedAt: answer.finishedAt?.toISOString() ?? null,
  expiresAt: answer.expiresAt?.toISOString() ?? null,
});
