// The pure rules of the export panel: how an export's progress reads, and when to stop asking for it.
import type { ExportStatus } from '@engram/contracts/exports';

/** Whether an export may still move (its progress is asked for again until it cannot). */
export const exportMoving = (status: ExportStatus) => status === 'queued' || status === 'running';

/** How much of the bar is filled, 0–1 (a queued export shows none, a done one all). */
export function exportShare(status: ExportStatus, progress: { done: number; total: number }): number {
  if (status === 'done') return 1;
  if (progress.total <= 0) return 0;
  return Math.min(1, progress.done / progress.total);
}
