// The workload simulator: a learner's own cards, scheduled with their own parameters at a desired retention,
// played forward day by day — which cards fall due, whether each is recalled (drawn from its recall probability),
// the new cards learned each day up to the preset's limit — giving the reviews and minutes of every day (minutes
// from the learner's own review durations) and how many cards they would remember at the end. Several desired
// retentions side by side show what a higher one costs; recommendRetention picks the one that buys the most
// remembering per minute. Pure computation, seeded, so a preview is the same each time it is asked.
import { RECOMMENDABLE_RETENTIONS } from '@engram/contracts/scheduling';
import { FSRSAlgorithm, type Grade, generatorParameters } from 'ts-fsrs';
import { seededRandom } from './seeded-random.js';

/** A card as the simulation starts from it: new, or with its memory state and days relative to today. */
export type SimulatedCard =
  | { isNew: true }
  | { isNew: false; stability: number; difficulty: number; lastDay: number; dueDay: number };

/** The learner's habits, from their review log (defaults when there is none). */
export interface LearnerHabits {
  /** Seconds a first review, a recalled review and a forgotten one take. */
  seconds: { new: number; recall: number; forget: number };
  /** How a new card's first rating falls: again, hard, good, easy (summing to 1). */
  firstRatings: [number, number, number, number];
  /** How a recalled card's rating falls: hard, good, easy (summing to 1). */
  recallRatings: [number, number, number];
}

export const DEFAULT_HABITS: LearnerHabits = {
  seconds: { new: 20, recall: 8, forget: 18 },
  firstRatings: [0.25, 0.1, 0.55, 0.1],
  recallRatings: [0.1, 0.85, 0.05],
};

export interface SimulationInput {
  cards: readonly SimulatedCard[];
  parameters: readonly number[];
  desiredRetention: number;
  days: number;
  newPerDay: number;
  reviewsPerDay: number;
  maximumIntervalDays: number;
  habits: LearnerHabits;
  seed: number;
}

export interface SimulatedDay {
  /** Days from today (0 is today). */
  day: number;
  /** Reviews that day, the first reviews of new cards included. */
  reviews: number;
  minutes: number;
}

export interface Simulation {
  daily: SimulatedDay[];
  /** The cards the learner would recall on the last day, expected (the sum of their recall probabilities). */
  remembered: number;
  /** The minutes of every day together. */
  totalMinutes: number;
}

/** The index whose share `roll` falls in. */
function pick(shares: readonly number[], roll: number): number {
  let sum = 0;
  for (let index = 0; index < shares.length; index += 1) {
    sum += shares[index] as number;
    if (roll < sum) return index;
  }
  return shares.length - 1;
}

interface Memory {
  stability: number;
  difficulty: number;
  lastDay: number;
}

export function simulate(input: SimulationInput): Simulation {
  const algorithm = new FSRSAlgorithm(
    generatorParameters({
      w: [...input.parameters],
      request_retention: input.desiredRetention,
      maximum_interval: input.maximumIntervalDays,
      enable_fuzz: false,
      enable_short_term: false,
    }),
  );
  const draw = seededRandom(input.seed);
  const { habits } = input;
  const memories: Memory[] = [];
  // due[d]: the memories falling due on day d of the simulation.
  const due: number[][] = Array.from({ length: input.days }, () => []);
  const schedule = (index: number, day: number) => {
    if (day < input.days) due[Math.max(0, day)]?.push(index);
  };
  let waitingNew = 0;
  for (const card of input.cards) {
    if (card.isNew) {
      waitingNew += 1;
      continue;
    }
    memories.push({ stability: card.stability, difficulty: card.difficulty, lastDay: card.lastDay });
    schedule(memories.length - 1, card.dueDay);
  }
  const daily: SimulatedDay[] = [];
  let totalMinutes = 0;
  for (let day = 0; day < input.days; day += 1) {
    let seconds = 0;
    let reviews = 0;
    const today = due[day] as number[];
    for (let position = 0; position < today.length; position += 1) {
      const index = today[position] as number;
      // Over the day's limit: the rest wait for tomorrow, in order.
      if (reviews >= input.reviewsPerDay) {
        schedule(index, day + 1);
        continue;
      }
      const memory = memories[index] as Memory;
      const elapsed = day - memory.lastDay;
      const recall = algorithm.forgetting_curve(elapsed, memory.stability);
      const recalled = draw() < recall;
      const grade = (recalled ? 2 + pick(habits.recallRatings, draw()) : 1) as Grade;
      const next = algorithm.next_state(memory, elapsed, grade, recall);
      memory.stability = next.stability;
      memory.difficulty = next.difficulty;
      memory.lastDay = day;
      seconds += recalled ? habits.seconds.recall : habits.seconds.forget;
      reviews += 1;
      schedule(index, day + Math.max(1, algorithm.next_interval(next.stability, elapsed)));
    }
    for (let learned = 0; learned < input.newPerDay && waitingNew > 0 && reviews < input.reviewsPerDay; learned += 1) {
      waitingNew -= 1;
      const grade = (1 + pick(habits.firstRatings, draw())) as Grade;
      const next = algorithm.next_state(null, 0, grade);
      memories.push({ stability: next.stability, difficulty: next.difficulty, lastDay: day });
      seconds += habits.seconds.new;
      reviews += 1;
      schedule(memories.length - 1, day + Math.max(1, algorithm.next_interval(next.stability, 0)));
    }
    const minutes = seconds / 60;
    totalMinutes += minutes;
    daily.push({ day, reviews, minutes });
  }
  const lastDay = input.days - 1;
  let remembered = 0;
  for (const memory of memories) remembered += algorithm.forgetting_curve(lastDay - memory.lastDay, memory.stability);
  return { daily, remembered, totalMinutes };
}

export interface Recommendation {
  desiredRetention: number;
  /** Expected cards remembered per minute of study at that retention. */
  rememberedPerMinute: number;
  /** The same at the preset's current retention. */
  currentPerMinute: number;
}

/** The retention (of RECOMMENDABLE_RETENTIONS) that gives the most cards remembered per minute of study. */
export function recommendRetention(
  input: Omit<SimulationInput, 'desiredRetention'>,
  currentRetention: number,
): Recommendation {
  const perMinute = (desiredRetention: number) => {
    const { remembered, totalMinutes } = simulate({ ...input, desiredRetention });
    return totalMinutes > 0 ? remembered / totalMinutes : 0;
  };
  let best: { desiredRetention: number; rememberedPerMinute: number } | undefined;
  for (const desiredRetention of RECOMMENDABLE_RETENTIONS) {
    const rememberedPerMinute = perMinute(desiredRetention);
    if (!best || rememberedPerMinute > best.rememberedPerMinute) best = { desiredRetention, rememberedPerMinute };
  }
  const chosen = best as { desiredRetention: number; rememberedPerMinute: number };
  return { ...chosen, currentPerMinute: perMinute(currentRetention) };
}
