// The dashboard's calendar: the learner's today, day ranges across a daylight-saving change, missing days
// filled in, and the year heatmap's weeks and levels.
import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayRange,
  formatShortDate,
  heatmapWeeks,
  onDays,
  todayIn,
} from '../../src/features/dashboard/days.ts';

describe('dashboard days', () => {
  it("takes today's date in the learner's timezone, not the browser's", () => {
    const now = new Date('2026-03-01T02:30:00Z');
    expect(todayIn('UTC', now)).toBe('2026-03-01');
    expect(todayIn('America/Sao_Paulo', now)).toBe('2026-02-28');
    expect(todayIn('Asia/Tokyo', now)).toBe('2026-03-01');
  });

  it('counts whole days across a daylight-saving change and a leap day', () => {
    expect(dayRange('2026-03-28', 3)).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });

  it("names a day in the user's language whatever the browser's timezone", () => {
    expect(formatShortDate('2026-11-22', 'en')).toBe('Nov 22');
    expect(formatShortDate('2026-11-22', 'pt-BR')).toBe('22 de nov.');
  });

  it('fills the days without a row', () => {
    const rows = [{ date: '2026-05-02', count: 3 }];
    expect(onDays(dayRange('2026-05-01', 3), rows, (date) => ({ date, count: 0 }))).toEqual([
      { date: '2026-05-01', count: 0 },
      { date: '2026-05-02', count: 3 },
      { date: '2026-05-03', count: 0 },
    ]);
  });

  it('lays the year out in Sunday-first weeks ending today, busier days darker', () => {
    // 2026-11-22 is a Sunday: the last column holds only today.
    const weeks = heatmapWeeks(
      [
        { date: '2026-11-22', count: 8 },
        { date: '2026-11-21', count: 2 },
        { date: '2025-11-23', count: 1 },
      ],
      '2026-11-22',
    );
    expect(weeks).toHaveLength(53);
    expect(weeks[0]?.[0]).toEqual({ date: '2025-11-23', count: 1, level: 1 });
    expect(weeks.at(-1)).toEqual([{ date: '2026-11-22', count: 8, level: 4 }]);
    expect(weeks.at(-2)?.at(-1)).toEqual({ date: '2026-11-21', count: 2, level: 1 });
    expect(weeks.at(-2)?.at(0)?.level).toBe(0);
  });
});
