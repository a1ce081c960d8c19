// Rows written with COPY in PostgreSQL's text format (the import's review items and logs) come back as they were,
// whatever characters the format gives a meaning: backslashes, tabs, line ends, the null marker's own spelling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyCell, copyRows } from '../../src/imports/copy-rows.js';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness({ jobs: false });
});
afterAll(() => cards?.stop());

describe('rows written with COPY', () => {
  it('spell null, booleans, numbers and the characters COPY reads as its own', () => {
    expect([null, true, false, 2.5, Number.NaN, 'a\\b\tc\nd\re'].map(copyCell)).toEqual([
      '\\N',
      't',
      'f',
      '2.5',
      'NaN',
      'a\\\\b\\tc\\nd\\re',
    ]);
  });

  it('come back as they went in, in order, across many blocks', async () => {
    const client = await cards.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('CREATE TEMP TABLE copied (n int, t text, f float8, b boolean, j jsonb) ON COMMIT DROP');
      const hostile = ['\\N', 'tab\there', 'line\nend', 'cr\rlf', 'back\\slash', '', 'ünïcødé 🃏'];
      const rows = Array.from({ length: 5_000 }, (_, n) => [
        n,
        n % 10 === 9 ? null : hostile[n % hostile.length]!,
        n / 7,
        n % 2 === 0,
        JSON.stringify({ text: hostile[n % hostile.length], n }),
      ]);
      await copyRows(client, 'copied', ['n', 't', 'f', 'b', 'j'], rows);
      const back = await client.query<{ n: number; t: string | null; f: number; b: boolean; j: unknown }>(
        'SELECT n, t, f, b, j FROM copied ORDER BY n',
      );
      // jsonb keeps a value, not its spelling: compared as values.
      expect(back.rows.map(({ n, t, f, b, j }) => [n, t, f, b, j])).toEqual(
        rows.map((row) => [...row.slice(0, 4), JSON.parse(row[4] as string)]),
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  });
});
