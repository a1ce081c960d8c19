// AnkiConnect's addNote (POST /api/anki-connect, issue 44) as a tool such as Yomitan sends it with the learner's API
// key, against cards.create through the same gateway with the same key (header x-api-key): both pay identity's key
// check and count, and both create one basic card with its review item and CardCreated event. addNote also reads
// the note type and deck, tests the note for a duplicate and turns its HTML into Markdown. One request at a time,
// p50 and p99 of each after a warm-up; every request creates a card (unique fronts, none a duplicate).
import { randomBytes } from 'node:crypto';
import { request, startBenchStack, trpcByKey } from './bench-stack.ts';
import { GC_FLUSH_MS, slowestThroughPauses } from './gc-pauses.ts';
import { type Measurement, measure, ms, ratioAgainst } from './measure.ts';

const REQUESTS = 1_000;
// While V8 compiles both paths (as dashboard-load warms each of its queries).
const WARM_UP = 100;
// Issue 44's target, a ratio within one run: addNote's p99 at most 3 times cards.create's.
const P99_TARGET = { atMost: 3 };

export async function ankiAddNote(adminUrl: string): Promise<void> {
  // Rate limits are part of the edge, not of this measurement: set far above what the run sends (the key's own
  // limit is lifted by stack.apiKey).
  const stack = await startBenchStack(adminUrl, {
    TRPC_RATE_LIMIT_PER_USER: '1000000',
    TRPC_RATE_LIMIT_PER_ADDRESS: '1000000',
  });
  try {
    const { cookie } = await stack.signUp('anki-tool-user');
    const key = await stack.apiKey(cookie);
    // Fronts no call before used (cards.create's included), so that no note is refused as a duplicate.
    const run = randomBytes(3).toString('hex');
    const front = (phase: string, i: number) => `Word ${run} ${phase} ${i}`;
    const endpoint = `${stack.url}/api/anki-connect`;
    const addNote = (phase: string) => async (i: number) => {
      const body = {
        action: 'addNote',
        version: 6,
        key,
        params: {
          note: {
            deckName: 'Default',
            modelName: 'Basic',
            fields: { Front: front(phase, i), Back: `Its <b>meaning</b>, ${i}` },
            tags: [],
          },
        },
      };
      const { status, text } = await request(
        endpoint,
        'POST',
        { 'content-type': 'application/json' },
        JSON.stringify(body),
      );
      const reply = JSON.parse(text) as { result: unknown; error: string | null };
      if (status !== 200 || reply.error !== null || typeof reply.result !== 'number') {
        throw new Error(`addNote: ${status} ${text}`);
      }
    };
    const create = (phase: string) => (i: number) =>
      trpcByKey(stack.url, key, 'cards.create', { front: front(phase, i), back: `Its **meaning**, ${i}` }, 'POST');

    const BASELINE = 'cards.create with the key (baseline)';
    const ADD_NOTE = 'AnkiConnect addNote with the key';
    const operations = [
      [BASELINE, 'created', create],
      [ADD_NOTE, 'added', addNote],
    ] as const;
    const results: Record<string, Measurement> = {};
    for (const [name, phase, operation] of operations) {
      await measure(WARM_UP, 1, operation(`${phase} first`));
      const from = Date.now();
      const result = await measure(REQUESTS, 1, operation(phase));
      const to = Date.now();
      results[name] = result;
      console.log(`${name.padEnd(38)} p50 ${ms(result.p50)}, p99 ${ms(result.p99)}`);
      // Each process writes down its pauses every GC_FLUSH_MS: those of the measured requests by then.
      await new Promise((resolve) => setTimeout(resolve, GC_FLUSH_MS + 100));
      console.log(`  ${slowestThroughPauses(result.slowest, stack.gcPauses(from, to), 'requests')}`);
    }
    const ratio = (results[ADD_NOTE]?.p99 ?? Number.NaN) / (results[BASELINE]?.p99 ?? Number.NaN);
    console.log(`p99 ratio addNote / cards.create: ${ratioAgainst(ratio, P99_TARGET)}`);
  } finally {
    await stack.stop();
  }
}
