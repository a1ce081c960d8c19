// A Browse screen's worth of cards (issue 44's benchmarks): one learner's 50,000 cards among 1,000,000 in all, the
// others spread over 99 learners, written straight into the cards schema by PostgreSQL itself (no row crosses the
// wire; the bigserial numbers fill themselves). Each card is what a few years of study leave: basic, reversed (two
// review items) and cloze (one or two) cards, added over two years; new, learning, relearning and review items,
// the review ones with intervals from a day to over a year (log-uniform: most are short), some overdue; 3%
// archived; a deck-like tag on 95% of the cards (about 10% each: TAGGED is one of them), a few `marked` and
// `leech` tags, and a front from a few templates (PHRASE is in 3% of them). Loaded as a restore would be: triggers
// and foreign-key checks off, the secondary indexes made after the rows (the schema ends as the migrations made it).
import type pg from 'pg';

export const TOTAL_CARDS = 1_000_000;
export const LEARNER_CARDS = 50_000;
const OTHER_LEARNERS = 99;

/** The deck-like tags every learner has; card n carries DECKS[n % 10] unless n % 20 = 19. */
const DECKS = [
  'Spanish',
  'French',
  'Biology',
  'Chemistry',
  'History',
  'Geography',
  'Medicine',
  'Japanese::Kanji',
  'Japanese::Vocabulary',
  'Law',
];
/** A tag about a tenth of the learner's cards carry. */
export const TAGGED = 'Biology';
/** A phrase in 3% of the fronts (one template of 25; the cloze cards have none). */
export const PHRASE = 'capital of';

const TEMPLATES = [
  'What is the capital of',
  'How do you say',
  'Define',
  'Translate into English:',
  'Which enzyme breaks down',
  'When did this happen:',
  'Who wrote',
  'Conjugate in the past tense:',
  'What is the plural of',
  'Name the bone next to',
  'What does this kanji mean:',
  'Give the symbol of',
  'What is the main function of',
  'Which treaty ended',
  'Where is',
  'What is the reading of',
  'Name the side effect of',
  'Which court decides',
  'What is the opposite of',
  'Give an example of',
  'What causes',
  'Which river flows through',
  'What is the formula of',
  'Explain the term',
  'What year was',
];

const list = (values: string[]) => `ARRAY[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ')}]`;

/** `sql` in a transaction of its own with triggers off: no foreign-key check per row, no key or due trigger. */
async function withoutTriggers(pool: pg.Pool, sql: string, params: unknown[] = []): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Needs a superuser, as the benchmarks' DATABASE_URL is (they create databases).
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(sql, params);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** The indexes of `tables` other than their primary keys: what each was made by. */
async function secondaryIndexes(pool: pg.Pool, tables: string[]): Promise<{ name: string; definition: string }[]> {
  const { rows } = await pool.query<{ name: string; definition: string }>(
    `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS definition
     FROM pg_index WHERE indrelid = ANY($1::regclass[]) AND NOT indisprimary`,
    [tables],
  );
  return rows;
}

/**
 * Seeds the cards, their review items and tags; `learnerId` owns the first LEARNER_CARDS. Returns the seconds it
 * took (about 40 s here; with the trigger and the foreign-key checks on, 115 s).
 */
export async function seedBrowseCards(pool: pg.Pool, learnerId: string): Promise<number> {
  const started = performance.now();
  const owners = `CASE WHEN g <= $2 THEN $1 ELSE 'bench-other-' || (g % $3) END`;
  // Each owner's tags (the learner's and the others').
  await pool.query(
    `INSERT INTO tags (id, owner_id, name, name_key, created_at)
     SELECT gen_random_uuid(), o.owner_id, d.name, lower(d.name), now() - interval '3 years'
     FROM (SELECT $1::text AS owner_id UNION ALL SELECT 'bench-other-' || n FROM generate_series(0, $2 - 1) n) o,
       unnest(${list([...DECKS, 'marked', 'leech'])}) d(name)`,
    [learnerId, OTHER_LEARNERS],
  );
  // Loaded, then indexed: each secondary index is made again as its migration made it, sorted at once rather than
  // grown a row at a time (the primary keys stay: the foreign keys hang on them).
  const indexes = await secondaryIndexes(pool, ['cards', 'review_items', 'card_tags']);
  await pool.query(`DROP INDEX ${indexes.map((index) => index.name).join(', ')}`);
  // Cards added 21 minutes apart (the learner's 50,000 over two years, as the others'). The sides are plain ASCII
  // without markup, so the keys the cards_keys trigger would give them (first_side_key: markup left out, spaces
  // collapsed, accents and case folded; search_fold: accents and case folded) are their lower case: written as
  // such, since the trigger (search_fold's translate for two million sides) is off here. A sample is checked
  // against it below.
  await withoutTriggers(
    pool,
    `INSERT INTO cards (id, owner_id, type, front, back, archived, created_at, updated_at, first_key, front_key,
       back_key)
     SELECT gen_random_uuid(), owner_id, type, front, back, archived, created_at, updated_at, lower(front),
       lower(front), lower(back)
     FROM (
       SELECT g, ${owners} AS owner_id,
         (CASE WHEN g % 20 = 0 THEN 'cloze' WHEN g % 10 = 5 THEN 'reversed' ELSE 'basic' END)::card_type AS type,
         CASE WHEN g % 20 = 0 THEN 'The {{c1::' || substr(md5(g::text), 1, 8) || '}} of note ' || g || ' is {{c2::' ||
           substr(md5(g::text), 9, 6) || '}}.'
         ELSE (${list(TEMPLATES)})[1 + g % ${TEMPLATES.length}] || ' ' || substr(md5(g::text), 1, 8) || '?' END AS front,
         'It is ' || substr(md5(g::text), 9, 10) || ', as chapter ' || g % 40 || ' of the course notes explains (see also ' ||
           substr(md5(g::text), 19, 6) || ').' AS back,
         g % 33 = 7 AS archived, now() - make_interval(secs => (g % $2) * 1261) AS created_at,
         now() - make_interval(secs => (g % $2) * 1000) AS updated_at
       FROM generate_series(1, $4) g
     ) card`,
    [learnerId, LEARNER_CARDS, OTHER_LEARNERS, TOTAL_CARDS],
  );
  const { rows } = await pool.query<{ wrong: number }>(
    `SELECT count(*)::int AS wrong FROM cards WHERE number % 997 = 0
       AND (first_key <> first_side_key(front) OR front_key <> search_fold(front) OR back_key <> search_fold(back))`,
  );
  if (rows[0]?.wrong !== 0)
    throw new Error(`the seed's side keys differ from the trigger's on ${rows[0]?.wrong} cards`);
  await Promise.all([
    // A review item per template: a reversed card's two sides, a cloze card's one or two deletions.
    withoutTriggers(
      pool,
      `INSERT INTO review_items (id, card_id, owner_id, ordinal, state, due, stability, difficulty, elapsed_days,
         scheduled_days, learning_step, reps, lapses, last_review, archived)
       SELECT gen_random_uuid(), id, owner_id, ordinal, state,
         CASE state WHEN 0 THEN created_at WHEN 2 THEN reviewed + make_interval(days => ivl)
           ELSE now() + make_interval(mins => (r * 600)::int - 60) END,
         CASE state WHEN 0 THEN 0 WHEN 2 THEN ivl * (0.8 + r * 0.5) ELSE 0.5 + r * 3 END,
         CASE WHEN state = 0 THEN 0 ELSE 1 + r * 9 END,
         CASE WHEN state = 2 THEN ivl ELSE 0 END,
         CASE WHEN state = 2 THEN ivl ELSE 0 END,
         CASE WHEN state IN (1, 3) THEN (r * 2)::int ELSE 0 END,
         CASE WHEN state = 0 THEN 0 ELSE 1 + (r * 20)::int END,
         CASE WHEN state = 3 THEN 1 + (r * 4)::int WHEN state = 2 THEN (r * r * 4)::int ELSE 0 END,
         CASE state WHEN 0 THEN NULL WHEN 2 THEN reviewed ELSE now() - make_interval(mins => (r * 600)::int) END,
         archived
       FROM (
         SELECT id, owner_id, created_at, archived, ordinal,
           CASE WHEN draw < 0.2 THEN 0 WHEN draw < 0.24 THEN 1 WHEN draw < 0.26 THEN 3 ELSE 2 END::smallint AS state,
           -- An interval of 1 to 400 days, most of them short; reviewed up to 1.15 intervals ago (some overdue).
           floor(exp(ln_ivl))::int AS ivl,
           now() - make_interval(secs => (seen * exp(ln_ivl) * 1.15 * 86400)::int) AS reviewed, r
         FROM (
           -- Drawn per item (in the select list of the rows they describe).
           SELECT c.id, c.owner_id, c.created_at, c.archived, o.ordinal,
             random() AS draw, random() * ln(400) AS ln_ivl, random() AS seen, random() AS r
           FROM cards c, unnest(CASE c.type WHEN 'basic' THEN '{0}'::smallint[] WHEN 'reversed' THEN '{0,1}'::smallint[]
             ELSE CASE WHEN c.number % 2 = 0 THEN '{1,2}'::smallint[] ELSE '{1}'::smallint[] END END) o(ordinal)
         ) drawn
       ) i`,
    ),
    // A deck-like tag on 95% of the cards, 'marked' on 3%, 'leech' on 1%.
    withoutTriggers(
      pool,
      `INSERT INTO card_tags (card_id, tag_id)
       SELECT c.id, t.id FROM cards c JOIN tags t ON t.owner_id = c.owner_id AND t.name = CASE
         WHEN c.number % 20 = 19 THEN NULL ELSE (${list(DECKS)})[1 + c.number % 10] END
       UNION ALL
       SELECT c.id, t.id FROM cards c JOIN tags t ON t.owner_id = c.owner_id AND t.name = 'marked' WHERE c.number % 33 = 1
       UNION ALL
       SELECT c.id, t.id FROM cards c JOIN tags t ON t.owner_id = c.owner_id AND t.name = 'leech' WHERE c.number % 97 = 3`,
    ),
  ]);
  // Each card's due, as the review items' triggers (off here) keep it: the soonest due of its learned items.
  await withoutTriggers(
    pool,
    `UPDATE cards c SET due = learned.due
     FROM (SELECT card_id, min(due) AS due FROM review_items WHERE state <> 0 GROUP BY card_id) learned
     WHERE c.id = learned.card_id`,
  );
  const pending = [...indexes];
  await Promise.all(
    [0, 1].map(async () => {
      const client = await pool.connect();
      try {
        await client.query(`SET maintenance_work_mem = '256MB'`);
        for (let index = pending.shift(); index; index = pending.shift()) await client.query(index.definition);
        await client.query('RESET maintenance_work_mem');
      } finally {
        client.release();
      }
    }),
  );
  // Vacuumed and analyzed as autovacuum would have by the time anyone looks, so the measurement does not race it.
  await pool.query('VACUUM ANALYZE');
  return (performance.now() - started) / 1000;
}
