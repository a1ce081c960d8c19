// Review submission through the whole path a learner's browser uses (gateway: session, tRPC, internal
// token → gRPC → the cards service's review transaction in PostgreSQL) against the same review
// transaction run straight on a pg pool in this process (recordReview, the handler's own code). 32
// learners review at once, each their own cards; both throughputs, p50/p99 and the ratio are printed.
//
// Those 32 always have a review waiting, so each waits on average 32 / throughput (Little's law): at
// full load the latencies say how much the path carries, not how long one review takes. So both paths
// are then also offered half the gateway path's throughput at a steady pace, by the same 32 learners,
// and the latency of a review at a load the path carries is printed too.
import { randomUUID } from 'node:crypto';
import { closeStores, createStores } from '@engram/cards/db';
import { recordReview } from '@engram/cards/review/record-review';
import { RATINGS } from '@engram/contracts/learning';
import { type BenchStack, startBenchStack, trpc } from './bench-stack.ts';
import { cpuPerOperation, cpuSnapshot } from './cpu.ts';
import { gcSummary, slowestThroughPauses } from './gc-pauses.ts';
import { closedLoopWait, measure, measurePaced, ms, ratioAgainst } from './measure.ts';

const CLIENTS = 32;
// Each learner's cards come from one cards.createMany and one cards.listDue, so both paths' reviews
// together stay within the 500 either takes: 2 × (150 + 40 + 50) = 480.
const REVIEWS_PER_CLIENT = 150;
// Until about a thousand reviews have gone through, V8 is still compiling the hot paths of every process
// (measured after 320 reviews, the gateway path's p99 was 55–66 ms; after 1,280, 40–48 ms).
const WARM_UP_PER_CLIENT = 40;
const PACED_PER_CLIENT = 50;
// Issue 24's targets, ratios within one run so that no target depends on the machine's speed: the gateway
// path carries at least 0.40 of the reviews PostgreSQL alone does, and at half that load its p99 is at most
// 2.5 times the direct path's.
const THROUGHPUT_TARGET = { atLeast: 0.4 };
const HALF_LOAD_P99_TARGET = { atMost: 2.5 };

interface Learner {
  cookie: string;
  userId: string;
  items: string[];
}

async function learnerWithCards(stack: BenchStack, index: number, cards: number): Promise<Learner> {
  const { cookie, userId } = await stack.signUp(`learner-${index}`);
  const batch = Array.from({ length: cards }, (_, i) => ({ front: `front ${i}`, back: `back ${i}` }));
  await trpc(stack.url, cookie, 'cards.createMany', { cards: batch }, 'POST');
  // Every new card is offered today: no daily limit holds any back.
  await trpc(stack.url, cookie, 'settings.updatePreset', { newPerDay: 9999 }, 'POST');
  const due = (await trpc(stack.url, cookie, 'cards.listDue')) as { result: { data: { items: { id: string }[] } } };
  return { cookie, userId, items: due.result.data.items.map((item) => item.id) };
}

export async function reviewSubmission(adminUrl: string): Promise<void> {
  // Rate limits are part of the edge, not of this measurement: set far above what the run sends.
  const stack = await startBenchStack(adminUrl, {
    TRPC_RATE_LIMIT_PER_USER: '1000000',
    TRPC_RATE_LIMIT_PER_ADDRESS: '1000000',
  });
  const stores = createStores(stack.cardsDatabaseUrl, { poolSize: CLIENTS });
  try {
    const perClient = 2 * (REVIEWS_PER_CLIENT + WARM_UP_PER_CLIENT + PACED_PER_CLIENT);
    const learners: Learner[] = [];
    for (let i = 0; i < CLIENTS; i += 1) learners.push(await learnerWithCards(stack, i, perClient));
    // Each learner's items: the first half for the gateway path, the second for the baseline.
    const next = learners.map(() => ({ gateway: 0, baseline: perClient / 2 }));
    const viaGateway = (i: number) => {
      const who = i % CLIENTS;
      const learner = learners[who]!;
      const id = learner.items[next[who]!.gateway++]!;
      const input = { id, rating: RATINGS[i % 4], reviewId: randomUUID(), durationMs: 2500 };
      return trpc(stack.url, learner.cookie, 'cards.review', input, 'POST');
    };
    const straightToPostgres = (i: number) => {
      const who = i % CLIENTS;
      const learner = learners[who]!;
      const id = learner.items[next[who]!.baseline++]!;
      return recordReview(stores.pool, learner.userId, {
        id,
        rating: RATINGS[i % 4]!,
        reviewId: randomUUID(),
        durationMs: 2500,
      });
    };
    await measure(WARM_UP_PER_CLIENT * CLIENTS, CLIENTS, viaGateway);
    await measure(WARM_UP_PER_CLIENT * CLIENTS, CLIENTS, straightToPostgres);
    const total = REVIEWS_PER_CLIENT * CLIENTS;
    const beforeGateway = cpuSnapshot(stack.pids);
    const gatewayFrom = Date.now();
    const gateway = await measure(total, CLIENTS, viaGateway);
    const gatewayTo = Date.now();
    const beforeBaseline = cpuSnapshot(stack.pids);
    const baseline = await measure(total, CLIENTS, straightToPostgres);
    const afterBaseline = cpuSnapshot(stack.pids);
    const halfLoad = gateway.perSecond / 2;
    const pacedFrom = Date.now();
    const pacedGateway = await measurePaced(PACED_PER_CLIENT * CLIENTS, CLIENTS, halfLoad, viaGateway);
    const pacedTo = Date.now();
    const pacedBaseline = await measurePaced(PACED_PER_CLIENT * CLIENTS, CLIENTS, halfLoad, straightToPostgres);
    console.log(
      `cards.review through the gateway (${CLIENTS} clients): ${gateway.perSecond.toFixed(0)}/s, p50 ${ms(gateway.p50)}, p99 ${ms(gateway.p99)}`,
    );
    console.log(
      `baseline, the same transaction on pg:      ${baseline.perSecond.toFixed(0)}/s, p50 ${ms(baseline.p50)}, p99 ${ms(baseline.p99)}`,
    );
    console.log(`CPU ms per review, gateway path: ${cpuPerOperation(beforeGateway, beforeBaseline, total)}`);
    console.log(`CPU ms per review, baseline:     ${cpuPerOperation(beforeBaseline, afterBaseline, total)}`);
    // Noted by each process twice a second: long flushed by now, after the paced runs.
    const pauses = stack.gcPauses(gatewayFrom, gatewayTo);
    console.log(`GC pauses, gateway path (count, sum, longest): ${gcSummary(pauses)}`);
    console.log(`  the slowest, gateway path: ${slowestThroughPauses(gateway.slowest, pauses, 'reviews')}`);
    console.log(
      `ratio gateway/baseline, throughput:         ${ratioAgainst(gateway.perSecond / baseline.perSecond, THROUGHPUT_TARGET)}`,
    );
    // Little's law: at full load the latencies say how much a path carries, not how long one review takes.
    console.log(
      `  at full load each of the ${CLIENTS} always-waiting clients waits ${CLIENTS} / throughput: ${ms(closedLoopWait(CLIENTS, gateway))} on average through the gateway, ${ms(closedLoopWait(CLIENTS, baseline))} on pg`,
    );
    console.log(
      `at half that load (${halfLoad.toFixed(0)}/s, steady, same ${CLIENTS} clients): gateway p50 ${ms(pacedGateway.p50)}, p99 ${ms(pacedGateway.p99)}; pg p50 ${ms(pacedBaseline.p50)}, p99 ${ms(pacedBaseline.p99)}`,
    );
    console.log(
      `ratio gateway/baseline, p99 at half load:   ${ratioAgainst(pacedGateway.p99 / pacedBaseline.p99, HALF_LOAD_P99_TARGET)}`,
    );
    const pacedPauses = stack.gcPauses(pacedFrom, pacedTo);
    console.log(`  GC pauses, gateway path at half load: ${gcSummary(pacedPauses)}`);
    console.log(
      `  the slowest, gateway path at half load: ${slowestThroughPauses(pacedGateway.slowest, pacedPauses, 'reviews')}`,
    );
  } finally {
    await closeStores(stores);
    await stack.stop();
  }
}
