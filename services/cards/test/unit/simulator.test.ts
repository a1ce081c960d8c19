// The workload simulator: what a desired retention costs a learner each day, and what it buys them.

import { DEFAULT_PARAMETERS } from '@engram/contracts/scheduler';
import { RECOMMENDABLE_RETENTIONS } from '@engram/contracts/scheduling';
import { describe, expect, it } from 'vitest';
import {
  boundedInput,
  DEFAULT_HABITS,
  recommendRetention,
  SIMULATION_STEPS,
  type SimulatedCard,
  type Simulation,
  type SimulationInput,
  simulate,
  simulateRuns,
} from '../../src/simulator/simulate.ts';

const newCards = (count: number): SimulatedCard[] => Array.from({ length: count }, () => ({ isNew: true }));

const base: Omit<SimulationInput, 'desiredRetention'> = {
  cards: newCards(2_000),
  parameters: DEFAULT_PARAMETERS,
  days: 365,
  newPerDay: 20,
  reviewsPerDay: 9_999,
  maximumIntervalDays: 36_500,
  habits: DEFAULT_HABITS,
  seed: 1,
};

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('simulating a year of study', () => {
  it('costs more reviews and minutes, and keeps more remembered, at a higher desired retention', () => {
    const [low, middle, high] = [0.8, 0.9, 0.95].map((desiredRetention) => simulate({ ...base, desiredRetention }));
    const reviews = (run: typeof low) => sum(run?.daily.map((day) => day.reviews) ?? []);
    expect(reviews(low)).toBeLessThan(reviews(middle));
    expect(reviews(middle)).toBeLessThan(reviews(high));
    expect(low?.totalMinutes).toBeLessThan(middle?.totalMinutes ?? 0);
    expect(middle?.totalMinutes).toBeLessThan(high?.totalMinutes ?? 0);
    expect(low?.remembered).toBeLessThan(middle?.remembered ?? 0);
    expect(middle?.remembered).toBeLessThan(high?.remembered ?? 0);
    // All 2,000 cards were learned (100 days at 20 a day), and most are remembered at the end.
    expect(middle?.remembered).toBeGreaterThan(1_600);
    expect(middle?.remembered).toBeLessThan(2_000);
    expect(middle?.daily).toHaveLength(365);
  });

  it('learns at most the new cards a day allows and carries reviews past the daily limit to the next day', () => {
    const limited = simulate({ ...base, desiredRetention: 0.9, newPerDay: 10, reviewsPerDay: 25 });
    expect(limited.daily[0]?.reviews).toBe(10);
    expect(Math.max(...limited.daily.map((day) => day.reviews))).toBeLessThanOrEqual(25);
    const unlimited = simulate({ ...base, desiredRetention: 0.9, newPerDay: 10 });
    expect(Math.max(...unlimited.daily.map((day) => day.reviews))).toBeGreaterThan(25);
  });

  it('reviews overdue cards first thing, and counts minutes from the learner’s own durations', () => {
    const overdue: SimulatedCard[] = Array.from({ length: 50 }, () => ({
      isNew: false,
      stability: 10,
      difficulty: 5,
      lastDay: -30,
      dueDay: -20,
    }));
    const run = simulate({ ...base, cards: overdue, desiredRetention: 0.9, days: 30 });
    expect(run.daily[0]?.reviews).toBe(50);
    const slower = simulate({
      ...base,
      cards: overdue,
      desiredRetention: 0.9,
      days: 30,
      habits: { ...DEFAULT_HABITS, seconds: { new: 40, recall: 16, forget: 36 } },
    });
    expect(slower.totalMinutes).toBeCloseTo(run.totalMinutes * 2, 6);
  });

  it('draws the same year for the same seed', () => {
    expect(simulate({ ...base, desiredRetention: 0.9 })).toEqual(simulate({ ...base, desiredRetention: 0.9 }));
  });
});

describe('recommending a desired retention', () => {
  it('picks the retention that gives the most remembered per minute, no worse than the current one', () => {
    const recommendation = recommendRetention(base, 0.97);
    expect(RECOMMENDABLE_RETENTIONS).toContain(recommendation.desiredRetention);
    expect(recommendation.rememberedPerMinute).toBeGreaterThanOrEqual(recommendation.currentPerMinute);
    for (const desiredRetention of RECOMMENDABLE_RETENTIONS) {
      const { remembered, totalMinutes } = simulate({ ...base, desiredRetention });
      expect(remembered / totalMinutes).toBeLessThanOrEqual(recommendation.rememberedPerMinute + 1e-9);
    }
  });
});

/** `count` cards already reviewed, spread over the coming days, as a learner's collection stands. */
const reviewedCards = (count: number): SimulatedCard[] =>
  Array.from({ length: count }, (_, index) => ({
    isNew: false,
    stability: 1 + (index % 60),
    difficulty: 3 + (index % 7),
    lastDay: -(index % 30),
    dueDay: index % 20,
  }));

/** The reviews a run stepped through (its figures are not scaled: a sample's own). */
const steps = (input: Omit<SimulationInput, 'desiredRetention'>, retentions: number[]) =>
  sum(
    retentions.flatMap((desiredRetention) => simulate({ ...input, desiredRetention }).daily.map((day) => day.reviews)),
  );

describe('a simulation whatever the settings', () => {
  it('steps through at most its budget of reviews at the worst allowed settings, with 10,000 cards', () => {
    const worst = { ...base, cards: reviewedCards(10_000), maximumIntervalDays: 1, newPerDay: 9_999 };
    const retentions = [0.8, 0.9, 0.95];
    // All of them would be 10,000 reviews a day for a year, three times over: 11 million steps.
    const { input, scale } = boundedInput(worst, retentions);
    expect(scale).toBeGreaterThan(1);
    expect(steps(input, retentions)).toBeLessThanOrEqual(SIMULATION_STEPS);
    // Scaled back, the day's limit of 9,999 reviews is still what a day takes.
    const [run] = simulateRuns(worst, [0.9]);
    expect(Math.abs((run?.daily[100]?.reviews ?? 0) - 9_999)).toBeLessThan(50);
  });

  it('gives nearly the figures of all the cards when it simulates a sample of them', () => {
    const weekly = { ...base, cards: reviewedCards(5_000), maximumIntervalDays: 7, reviewsPerDay: 600 };
    const retentions = [0.85, 0.9, 0.95];
    expect(boundedInput(weekly, retentions).scale).toBeGreaterThan(1);
    const sampled = simulateRuns(weekly, retentions);
    retentions.forEach((desiredRetention, index) => {
      const all = simulate({ ...weekly, desiredRetention });
      const part = sampled[index] as Simulation;
      expect(Math.abs(part.totalMinutes - all.totalMinutes) / all.totalMinutes).toBeLessThan(0.05);
      expect(Math.abs(part.remembered - all.remembered) / all.remembered).toBeLessThan(0.05);
    });
  });

  it('simulates every card when they fit in the budget, as most learners’ do', () => {
    const usual = { ...base, cards: reviewedCards(10_000) };
    expect(boundedInput(usual, [0.8, 0.9, 0.95])).toEqual({ input: usual, scale: 1 });
  });
});
