// A bulk tag change of Browse (browse.bulkEdit, issue 44) through the gateway: one tag added to 5,000 of a learner's
// cards, among 1,000,000 cards (browse-seed.ts), in one transaction with the snapshot its undo needs, against the
// floor PostgreSQL sets for touching those rows: one UPDATE of the same 5,000 cards sent straight to it. Each round
// takes 5,000 cards no round before it touched, both paths the same ones (which goes first alternates); the
// medians of the rounds are compared.
import { createPool } from '@engram/kit/db';
import { startBenchStack, trpc } from './bench-stack.ts';
import { LEARNER_CARDS, seedBrowseCards, TOTAL_CARDS } from './browse-seed.ts';
import { median, ms, ratioAgainst, timed } from './measure.ts';

const CARDS = 5_000;
const WARM_UP_ROUNDS = 2;
const ROUNDS = 7;
// Issue 44's target, a ratio within one run: the bulk edit takes at most 5 times the UPDATE of the same rows.
const TARGET = { atMost: 5 };

export async function bulkTagChange(adminUrl: string): Promise<void> {
  const stack = await startBenchStack(adminUrl, {
    TRPC_RATE_LIMIT_PER_USER: '1000000',
    TRPC_RATE_LIMIT_PER_ADDRESS: '1000000',
  });
  const pool = createPool(stack.cardsDatabaseUrl, { max: 2 });
  try {
    const { cookie, userId } = await stack.signUp('tagging-learner');
    const seconds = await seedBrowseCards(pool, userId);
    console.log(
      `seeded ${TOTAL_CARDS.toLocaleString('en')} cards, ${LEARNER_CARDS.toLocaleString('en')} of them the learner's, in ${seconds.toFixed(0)} s`,
    );
    const tag = (await trpc(stack.url, cookie, 'cards.createTag', { name: 'Exam week' }, 'POST')) as {
      result: { data: { id: string } };
    };
    const tagId = tag.result.data.id;
    // The learner's cards in a random order, CARDS for each round.
    const { rows } = await pool.query<{ id: string }>(
      'SELECT id FROM cards WHERE owner_id = $1 ORDER BY random() LIMIT $2',
      [userId, CARDS * (WARM_UP_ROUNDS + ROUNDS)],
    );
    const cardsOf = (round: number) => rows.slice(round * CARDS, (round + 1) * CARDS).map((row) => row.id);

    const bulkEdit = async (cardIds: string[]) => {
      const answer = (await trpc(
        stack.url,
        cookie,
        'browse.bulkEdit',
        { action: 'add_tags', cardIds, tagIds: [tagId] },
        'POST',
      )) as { result: { data: { changed: number } } };
      if (answer.result.data.changed !== CARDS) throw new Error(`the bulk edit changed ${answer.result.data.changed}`);
    };
    const update = async (cardIds: string[]) => {
      const { rowCount } = await pool.query('UPDATE cards SET updated_at = now() WHERE id = ANY($1::uuid[])', [
        cardIds,
      ]);
      if (rowCount !== CARDS) throw new Error(`the UPDATE changed ${rowCount} rows`);
    };
    const edits: number[] = [];
    const updates: number[] = [];
    for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round += 1) {
      const cardIds = cardsOf(round);
      // Whichever goes first reads the rows into memory for the other: each goes first every other round.
      let edit: number;
      let plain: number;
      if (round % 2 === 0) {
        edit = await timed(() => bulkEdit(cardIds));
        plain = await timed(() => update(cardIds));
      } else {
        plain = await timed(() => update(cardIds));
        edit = await timed(() => bulkEdit(cardIds));
      }
      if (round < WARM_UP_ROUNDS) continue;
      edits.push(edit);
      updates.push(plain);
    }
    const edit = median(edits);
    const plain = median(updates);
    console.log(
      `browse.bulkEdit add_tags, ${CARDS.toLocaleString('en')} cards, through the gateway: ${ms(edit)} (rounds: ${edits.map((value) => value.toFixed(0)).join(', ')} ms)`,
    );
    console.log(
      `baseline, UPDATE cards SET updated_at = now() of the same rows on pg: ${ms(plain)} (rounds: ${updates.map((value) => value.toFixed(0)).join(', ')} ms)`,
    );
    console.log(`  (medians of ${ROUNDS} rounds after ${WARM_UP_ROUNDS}, each on cards of its own)`);
    console.log(`ratio bulk edit/UPDATE: ${ratioAgainst(edit / plain, TARGET)}`);
  } finally {
    await pool.end();
    await stack.stop();
  }
}
