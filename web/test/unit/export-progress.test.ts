// The export panel's rules: an export is asked about again only while it may still move, and its bar fills
// with the cards written, all of it once done.
import { describe, expect, it } from 'vitest';
import { exportMoving, exportShare } from '../../src/features/import/export-progress';

describe("an export's progress", () => {
  it('is followed while queued or running, and no longer once done, failed or expired', () => {
    expect(['queued', 'running', 'done', 'failed', 'expired'].map((status) => exportMoving(status as never))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('fills the bar with the cards written so far, none before it knows how many, all once done', () => {
    expect(exportShare('queued', { done: 0, total: 0 })).toBe(0);
    expect(exportShare('running', { done: 250, total: 1_000 })).toBe(0.25);
    expect(exportShare('done', { done: 0, total: 0 })).toBe(1);
  });
});
