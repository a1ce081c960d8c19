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
  /** New cards and reviews a day; fractions (a sample's share of a limit) average out over the days. */
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
  // A fractional limit gives its whole part each day and carries the rest: on average, the limit.
  let reviewsCarry = 0;
  let newCarry = 0;
  for (let day = 0; day < input.days; day += 1) {
    let seconds = 0;
    let reviews = 0;
    const reviewsToday = Math.floor(input.reviewsPerDay + reviewsCarry);
    reviewsCarry = input.reviewsPerDay + reviewsCarry - reviewsToday;
    const newToday = Math.floor(input.newPerDay + newCarry);
    newCarry = input.newPerDay + newCarry - newToday;
    const today = due[day] as number[];
    for (let position = 0; position < today.length; position += 1) {
      const index = today[position] as number;
      // Over the day's limit: the rest wait for tomorrow, in order.
      if (reviews >= reviewsToday) {
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
    for (let learned = 0; learned < newToday && waitingNew > 0 && reviews < reviewsToday; learned += 1) {
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

/**
 * The reviews a call's simulated runs may step through in all, whatever the learner's cards and settings (about
 * 2 µs each). Most learners' cards come due every few weeks or months, so 10,000 cards over a year are some
 * 200,000 steps a run; but the worst allowed settings (a maximum interval of 1 day, limits of 9,999) review every
 * card every day, 3.65 million steps a run, which took tens of seconds. A pilot on a sample of PILOT_CARDS tells
 * how many steps a card takes; when all the cards would take more than the budget, the runs simulate a sample of
 * them (chosen with the learner's seed, so the same each time) with the same share of their daily limits, and the
 * sample's figures are scaled back to all their cards. bench/optimizer.ts measures the worst case against 2 s.
 */
export const SIMULATION_STEPS = 600_000;
const PILOT_CARDS = 200;

/** The first `count` of `cards` in an order drawn with `seed` (a partial Fisher–Yates shuffle). */
function sample(cards: readonly SimulatedCard[], count: number, seed: number): SimulatedCard[] {
  const draw = seededRandom(seed ^ 0x5eed);
  const shuffled = [...cards];
  for (let index = 0; index < count; index += 1) {
    const other = index + Math.floor(draw() * (shuffled.length - index));
    [shuffled[index], shuffled[other]] = [shuffled[other] as SimulatedCard, shuffled[index] as SimulatedCard];
  }
  shuffled.length = count;
  return shuffled;
}

/** `input` restricted to `count` of its cards, with their share of the daily limits. */
function sampled<T extends Omit<SimulationInput, 'desiredRetention'>>(input: T, count: number): T {
  const share = count / input.cards.length;
  return {
    ...input,
    cards: sample(input.cards, count, input.seed),
    newPerDay: input.newPerDay * share,
    reviewsPerDay: input.reviewsPerDay * share,
  };
}

/**
 * `input` cut so that `retentions.length` runs (at those desired retentions) step through at most
 * SIMULATION_STEPS reviews, and the scale that takes a sample's figures back to all the cards (1: all simulated).
 */
export function boundedInput<T extends Omit<SimulationInput, 'desiredRetention'>>(
  input: T,
  retentions: readonly number[],
): { input: T; scale: number } {
  const cards = input.cards.length;
  const runs = Math.max(1, retentions.length);
  // No run can step more than a review a card a day.
  if (cards * input.days * runs <= SIMULATION_STEPS) return { input, scale: 1 };
  // The pilot, at the highest retention asked for (the most reviews).
  const pilot = sampled(input, Math.min(cards, PILOT_CARDS));
  const { daily } = simulate({ ...pilot, desiredRetention: Math.max(...retentions) });
  const stepsPerCard = Math.max(1, daily.reduce((sum, day) => sum + day.reviews, 0) / pilot.cards.length);
  const affordable = Math.floor(SIMULATION_STEPS / (stepsPerCard * runs));
  if (affordable >= cards) return { input, scale: 1 };
  const count = Math.max(Math.min(cards, PILOT_CARDS), affordable);
  return { input: sampled(input, count), scale: cards / count };
}

/** One run for each of `retentions`, within the budget, as of all the learner's cards. */
export function simulateRuns(whole: Omit<SimulationInput, 'desiredRetention'>, retentions: readonly number[]) {
  const { input, scale } = boundedInput(whole, retentions);
  return retentions.map((desiredRetention) => scaled(simulate({ ...input, desiredRetention }), scale));
}

/** A simulation of a sample, as of all the cards it stands for. */
export function scaled(run: Simulation, scale: number): Simulation {
  if (scale === 1) return run;
  return {
    daily: run.daily.map(({ day, reviews, minutes }) => ({
      day,
      reviews: Math.round(reviews * scale),
      minutes: minutes * scale,
    })),
    remembered: run.remembered * scale,
    totalMinutes: run.totalMinutes * scale,
  };
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
  whole: Omit<SimulationInput, 'desiredRetention'>,
  currentRetention: number,
): Recommendation {
  // Remembered per minute is the same for a sample as for all the cards it stands for: no scaling back.
  const { input } = boundedInput(whole, [...RECOMMENDABLE_RETENTIONS, currentRetention]);
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
