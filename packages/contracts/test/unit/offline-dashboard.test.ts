// The dashboard offline: the progress and streak the server last told the device, moved on by the reviews done on the
// device since, as the server counts them once they sync — in the learner's own days (São Paulo, days starting at
// 4 am).
import { memoryToJson, newMemoryState } from '@engram/contracts/memory-state';
import type { OfflineItem } from '@engram/contracts/offline';
import { type Progress, progressOnDevice, type Streak, streakOnDevice } from '@engram/contracts/offline-dashboard';
import { type DeviceState, reviewOnDevice, undoOnDevice } from '@engram/contracts/offline-practice';
import { describe, expect, it } from 'vitest';

const SETTINGS = {
  timezone: 'America/Sao_Paulo',
  dayStartHour: 4,
  maximumIntervalDays: 36_500,
  learningSteps: ['1m', '10m'],
  relearningSteps: ['10m'],
  fuzz: false,
  easyDays: [1, 1, 1, 1, 1, 1, 1],
  loadBalance: false,
  presets: [],
};

/** An instant given in São Paulo's time (UTC-3 all year). */
const local = (dateTime: string) => new Date(`${dateTime}-03:00`);

const newItem = (n: number): OfflineItem => ({
  id: `item-${n}`,
  cardId: `card-${n}`,
  type: 'basic',
  ordinal: 0,
  front: `Q${n}`,
  back: `A${n}`,
  tags: [],
  memory: memoryToJson(newMemoryState(local('2026-11-01T10:00:00'))),
  presetId: null,
});

const PROGRESS: Progress = {
  total: 10,
  archived: 1,
  new: 8,
  learning: 0,
  review: 2,
  relearning: 0,
  dueToday: 8,
  reviewedToday: 3,
  dailyGoal: 20,
};

/** A device whose set (with the server's progress and streak) was made at `at`: eight new cards kept (the two
 * review cards are not due). */
function device(at: Date, progress: Partial<Progress> = {}, streak: Partial<Streak> = {}): DeviceState {
  return {
    settings: SETTINGS,
    set: {
      generatedAt: at.toISOString(),
      items: Array.from({ length: 8 }, (_, n) => newItem(n)),
      doneToday: [{ presetId: null, newCards: 3, reviews: 0 }],
      dueDays: [],
      complete: true,
      progress: { ...PROGRESS, ...progress },
      streak: { current: 4, longest: 6, reviewedToday: true, ...streak },
    },
    reviews: [],
  };
}

/** `state` after rating its item `n` "good" at `at`. */
function rate(state: DeviceState, n: number, at: Date): DeviceState {
  const item = state.set.items.find((kept) => kept.id === `item-${n}`);
  if (!item) throw new Error(`no item ${n}`);
  return reviewOnDevice(state, item, 'good', at).state;
}

describe('the dashboard on a device without the network', () => {
  it('says nothing of progress or streak from a set an earlier version kept, without them', () => {
    const state = device(local('2026-11-20T10:00:00'));
    const { progress: _, streak: __, ...set } = state.set;
    const without = { ...state, set: set as DeviceState['set'] };
    expect(progressOnDevice(without, local('2026-11-20T11:00:00'))).toBeNull();
    expect(streakOnDevice(without, local('2026-11-20T11:00:00'))).toBeNull();
  });

  it("counts the reviews done here toward today's reviews and moves each card to its new state", () => {
    let state = device(local('2026-11-20T10:00:00'));
    state = rate(state, 0, local('2026-11-20T10:05:00'));
    state = rate(state, 1, local('2026-11-20T10:06:00'));
    // A card rated twice here counts twice among today's reviews and once among the cards that moved: through its
    // two learning steps to review.
    state = rate(state, 1, local('2026-11-20T10:17:00'));
    const progress = progressOnDevice(state, local('2026-11-20T10:30:00'));
    expect(progress).toMatchObject({ total: 10, new: 6, learning: 1, review: 3, reviewedToday: 6, dailyGoal: 20 });
    // Due today, as the due list offers it now: the card at its learning step and the six new ones (within the
    // day's 20 new cards less the 5 started today).
    expect(progress?.dueToday).toBe(7);
  });

  it('gives a card back its state when its review is taken back', () => {
    const before = device(local('2026-11-20T10:00:00'));
    const memory = before.set.items[0]?.memory;
    if (!memory) throw new Error('no item');
    const rated = rate(before, 0, local('2026-11-20T10:05:00'));
    const undone = undoOnDevice(rated, 'item-0', local('2026-11-20T10:05:00').toISOString(), memory);
    expect(progressOnDevice(undone, local('2026-11-20T10:30:00'))).toMatchObject({
      new: 8,
      learning: 0,
      reviewedToday: 3,
    });
  });

  it("starts today's count again at the learner's day start, not at midnight UTC or local", () => {
    let state = device(local('2026-11-20T22:00:00'));
    state = rate(state, 0, local('2026-11-20T23:30:00'));
    state = rate(state, 1, local('2026-11-21T03:30:00'));
    // Before 4 am it is still the 20th: the server's three and both reviews here.
    expect(progressOnDevice(state, local('2026-11-21T03:45:00'))?.reviewedToday).toBe(5);
    state = rate(state, 2, local('2026-11-21T04:10:00'));
    // After 4 am only what was done since.
    expect(progressOnDevice(state, local('2026-11-21T04:15:00'))?.reviewedToday).toBe(1);
  });

  it('keeps the streak going with a day practised here and counts it as today', () => {
    // The server counted a run of four days up to yesterday, nothing yet today.
    let state = device(local('2026-11-20T08:00:00'), {}, { current: 4, longest: 6, reviewedToday: false });
    expect(streakOnDevice(state, local('2026-11-20T09:00:00'))).toEqual({
      current: 4,
      longest: 6,
      reviewedToday: false,
    });
    state = rate(state, 0, local('2026-11-20T09:00:00'));
    expect(streakOnDevice(state, local('2026-11-20T09:01:00'))).toEqual({
      current: 5,
      longest: 6,
      reviewedToday: true,
    });
    // The next day, not yet practised: the run still counts until the day is over, then it is gone.
    expect(streakOnDevice(state, local('2026-11-21T12:00:00'))).toEqual({
      current: 5,
      longest: 6,
      reviewedToday: false,
    });
    expect(streakOnDevice(state, local('2026-11-22T12:00:00'))).toEqual({
      current: 0,
      longest: 6,
      reviewedToday: false,
    });
  });

  it('lengthens the run over the days practised here, and the longest run with it', () => {
    let state = device(local('2026-11-20T08:00:00'), {}, { current: 5, longest: 6, reviewedToday: true });
    state = rate(state, 0, local('2026-11-20T09:00:00'));
    state = rate(state, 1, local('2026-11-21T09:00:00'));
    state = rate(state, 2, local('2026-11-22T09:00:00'));
    expect(streakOnDevice(state, local('2026-11-22T10:00:00'))).toEqual({
      current: 7,
      longest: 7,
      reviewedToday: true,
    });
  });

  it('starts a new run after a day missed, and one from nothing', () => {
    let broken = device(local('2026-11-20T08:00:00'), {}, { current: 2, longest: 6, reviewedToday: true });
    broken = rate(broken, 0, local('2026-11-22T09:00:00'));
    expect(streakOnDevice(broken, local('2026-11-22T10:00:00'))).toEqual({
      current: 1,
      longest: 6,
      reviewedToday: true,
    });

    let fresh = device(local('2026-11-20T08:00:00'), {}, { current: 0, longest: 3, reviewedToday: false });
    fresh = rate(fresh, 0, local('2026-11-20T09:00:00'));
    // 03:30 on the 22nd is still the learner's 21st.
    fresh = rate(fresh, 1, local('2026-11-22T03:30:00'));
    expect(streakOnDevice(fresh, local('2026-11-22T03:40:00'))).toEqual({
      current: 2,
      longest: 3,
      reviewedToday: true,
    });
  });

  it("counts a day practised here even when the server's clock was already on the next day", () => {
    // The set came from a server whose clock said just past the day start; this device's said 03:50, the day before.
    let state = device(local('2026-11-21T04:05:00'), {}, { current: 0, longest: 0, reviewedToday: false });
    state = rate(state, 0, local('2026-11-21T03:50:00'));
    state = rate(state, 1, local('2026-11-21T04:10:00'));
    expect(streakOnDevice(state, local('2026-11-21T04:15:00'))).toEqual({
      current: 2,
      longest: 2,
      reviewedToday: true,
    });
  });
});
