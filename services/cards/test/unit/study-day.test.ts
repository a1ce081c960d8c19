// The learner's day starts at their day-start hour in their own timezone, across daylight-saving changes.

import { addDays, studyDayAround, studyDayOf, studyDayStart } from '@engram/contracts/study-day';
import { describe, expect, it } from 'vitest';

const at = (iso: string) => new Date(iso);

describe("the learner's day", () => {
  it('counts a review before the day-start hour for the day before', () => {
    // 03:30 in São Paulo (UTC-3) is 06:30 UTC; with the day starting at 4 it is still the 21st.
    expect(studyDayOf(at('2026-11-22T06:30:00Z'), 'America/Sao_Paulo', 4)).toBe('2026-11-21');
    expect(studyDayOf(at('2026-11-22T07:30:00Z'), 'America/Sao_Paulo', 4)).toBe('2026-11-22');
  });

  it('is the same instant on different calendar days in different timezones', () => {
    const instant = at('2026-06-01T23:30:00Z');
    expect(studyDayOf(instant, 'Asia/Tokyo', 0)).toBe('2026-06-02');
    expect(studyDayOf(instant, 'America/Los_Angeles', 0)).toBe('2026-06-01');
    expect(studyDayOf(instant, 'UTC', 0)).toBe('2026-06-01');
  });

  it('starts at the day-start hour in local time on both sides of a daylight-saving change', () => {
    // New York: EST (UTC-5) until 2026-03-08 02:00, EDT (UTC-4) after.
    expect(studyDayStart('2026-03-07', 'America/New_York', 4).toISOString()).toBe('2026-03-07T09:00:00.000Z');
    expect(studyDayStart('2026-03-08', 'America/New_York', 4).toISOString()).toBe('2026-03-08T08:00:00.000Z');
    // Back to EST on 2026-11-01 at 02:00.
    expect(studyDayStart('2026-11-01', 'America/New_York', 4).toISOString()).toBe('2026-11-01T09:00:00.000Z');
  });

  // Berlin moves its clocks at 02:00 on 2026-03-29 and 03:00 on 2026-10-25; with the day starting at 4,
  // those moments fall in the learner's days of the 28th and the 24th.
  it('has 23 hours on the spring-forward day and 25 on the fall-back day', () => {
    const hours = (day: string) =>
      (studyDayStart(addDays(day, 1), 'Europe/Berlin', 4).getTime() -
        studyDayStart(day, 'Europe/Berlin', 4).getTime()) /
      3_600_000;
    expect(hours('2026-03-28')).toBe(23);
    expect(hours('2026-10-24')).toBe(25);
    expect(hours('2026-03-29')).toBe(24);
    expect(hours('2026-06-10')).toBe(24);
  });

  it('begins when the clocks jump when the day-start hour falls in the skipped hour', () => {
    // On 2026-03-08 New York skips 02:00–03:00; a day starting at 2 begins at 03:00 EDT (07:00 UTC).
    expect(studyDayStart('2026-03-08', 'America/New_York', 2).toISOString()).toBe('2026-03-08T07:00:00.000Z');
  });

  it('takes the first of two 1 am hours on the fall-back day', () => {
    expect(studyDayStart('2026-11-01', 'America/New_York', 1).toISOString()).toBe('2026-11-01T05:00:00.000Z');
  });

  it('gives today with its start and the start of tomorrow', () => {
    const around = studyDayAround(at('2026-11-22T12:00:00Z'), 'Asia/Kolkata', 4);
    expect(around).toEqual({
      today: '2026-11-22',
      start: at('2026-11-21T22:30:00Z'),
      end: at('2026-11-22T22:30:00Z'),
    });
  });

  it('moves across month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
  });
});
