// Browse's search (browse.search, issue 44) through the gateway, a page of 50 as the web app asks for it, over one
// learner's 50,000 cards among 1,000,000 (browse-seed.ts): searches a learner types (a deck-like tag about a tenth
// of their cards carry, and due; a phrase; learned cards past a ten-day interval) and the whole collection, newest
// first as Browse opens and sorted by due, each with its p50 and p99, against the plain first page of the same
// learner's cards (cards.list, 50 a page) through the same gateway as the baseline. A search the gateway gives up
// on (408 after its 3 s deadline) counts with the time it took to be refused, and is said so.
import { createPool } from '@engram/kit/db';
import { startBenchStack, trpc } from './bench-stack.ts';
import { LEARNER_CARDS, PHRASE, seedBrowseCards, TAGGED, TOTAL_CARDS } from './browse-seed.ts';
import { GC_FLUSH_MS, slowestThroughPauses } from './gc-pauses.ts';
import { type Measurement, measure, ms, ratioAgainst } from './measure.ts';

// Issue 44's target, a ratio within one run: a Browse search has a p99 at most 3 times the baseline call's.
const P99_TARGET = { atMost: 3 };
const PAGE_SIZE = 50;
// Requests before each measurement while V8 compiles the path: WARM_UP, or as many as WARM_UP_MS allows.
const WARM_UP = 50;
const WARM_UP_MS = 2_000;
// Each query is then measured for about BUDGET_MS: at least MIN_REQUESTS and at most MAX_REQUESTS requests, one
// at a time (a slow search gets fewer, so the run stays within minutes; the count is printed beside its p99).
const BUDGET_MS = 10_000;
const MIN_REQUESTS = 10;
const MAX_REQUESTS = 1_000;

/** The searches, by how they are printed: browse.search's input, a page of PAGE_SIZE. */
const SEARCHES: Record<string, { query: string; sort?: 'due' }> = {
  [`tag:${TAGGED} is:due`]: { query: `tag:${TAGGED} is:due` },
  [`"${PHRASE}"`]: { query: `"${PHRASE}"` },
  '-is:new prop:ivl>10': { query: '-is:new prop:ivl>10' },
  '"" (every card, newest first)': { query: '' },
  '"" sorted by due': { query: '', sort: 'due' },
};

/** Sends `run` one request at a time until WARM_UP are answered or WARM_UP_MS have passed; the mean latency. */
async function warmUp(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let sent = 0;
  while (sent < WARM_UP && performance.now() - started < WARM_UP_MS) {
    await run();
    sent += 1;
  }
  return (performance.now() - started) / sent;
}

/** Runs `operation` while counting its refusals: how many, and the first refusal's words. */
function counted(operation: () => Promise<unknown>) {
  const failures = { count: 0, first: '' };
  const run = () =>
    operation().catch((error: unknown) => {
      failures.count += 1;
      failures.first ||= String(error).slice(0, 160);
    });
  return { run, failures };
}

export async function browseSearch(adminUrl: string): Promise<void> {
  const stack = await startBenchStack(adminUrl, {
    TRPC_RATE_LIMIT_PER_USER: '1000000',
    TRPC_RATE_LIMIT_PER_ADDRESS: '1000000',
  });
  const pool = createPool(stack.cardsDatabaseUrl, { max: 2 });
  try {
    const { cookie, userId } = await stack.signUp('browsing-learner');
    const seconds = await seedBrowseCards(pool, userId);
    console.log(
      `seeded ${TOTAL_CARDS.toLocaleString('en')} cards, ${LEARNER_CARDS.toLocaleString('en')} of them the learner's, in ${seconds.toFixed(0)} s`,
    );
    const BASELINE = `cards.list, ${PAGE_SIZE} a page (baseline)`;
    const operations: Record<string, () => Promise<unknown>> = {
      [BASELINE]: () => trpc(stack.url, cookie, 'cards.list', { pageSize: PAGE_SIZE }),
    };
    const found: string[] = [];
    for (const [name, input] of Object.entries(SEARCHES)) {
      operations[name] = () => trpc(stack.url, cookie, 'browse.search', { ...input, pageSize: PAGE_SIZE });
      // How many of the learner's cards it finds (browse.count, which has the same deadline).
      const count = await trpc(stack.url, cookie, 'browse.count', { query: input.query }).then(
        (answer) => (answer as { result: { data: { count: number } } }).result.data.count.toLocaleString('en'),
        (error: unknown) => `not counted (browse.count: ${/: (\d{3}) /.exec(String(error))?.[1] ?? 'failed'})`,
      );
      found.push(`${name} ${count}`);
    }
    console.log(`cards each search finds: ${found.join('; ')}`);
    const results: Record<string, Measurement> = {};
    for (const [name, operation] of Object.entries(operations)) {
      const { run, failures } = counted(operation);
      const mean = await warmUp(run);
      const requests = Math.round(Math.min(MAX_REQUESTS, Math.max(MIN_REQUESTS, BUDGET_MS / mean)));
      failures.count = 0;
      failures.first = '';
      const from = Date.now();
      const result = await measure(requests, 1, run);
      const to = Date.now();
      results[name] = result;
      const label = name === BASELINE ? name : `browse.search ${name}`;
      console.log(`${label.padEnd(48)} p50 ${ms(result.p50)}, p99 ${ms(result.p99)} (${requests} requests)`);
      if (failures.count > 0) console.log(`  ${failures.count} of them refused, as: ${failures.first}`);
      // Each process writes down its pauses every GC_FLUSH_MS: those of the measured requests by then.
      await new Promise((resolve) => setTimeout(resolve, GC_FLUSH_MS + 100));
      console.log(`  ${slowestThroughPauses(result.slowest, stack.gcPauses(from, to), 'requests')}`);
    }
    const baselineP99 = results[BASELINE]?.p99 ?? Number.NaN;
    const searches = Object.entries(results).filter(([name]) => name !== BASELINE);
    for (const [name, result] of searches) {
      console.log(`p99 ratio ${name} / baseline: ${ratioAgainst(result.p99 / baselineP99, P99_TARGET)}`);
    }
    const [worst, slowest] = searches.reduce((a, b) => (b[1].p99 > a[1].p99 ? b : a));
    console.log(
      `p99 ratio, the slowest search (${worst}) / baseline: ${ratioAgainst(slowest.p99 / baselineP99, P99_TARGET)}`,
    );
  } finally {
    await pool.end();
    await stack.stop();
  }
}
