// `npm run proof -- --short` as part of npm test: the whole stack with two replicas of the gateway and of
// cards on private PostgreSQL, NATS and Redis, every scenario under load (an account deleted in each),
// then every attack, and every promise held (needs the build: it runs the dist/ files).
import { describe, expect, it } from 'vitest';
import { ATTACKS } from '../proof/attacks.ts';
import { ATTACK_PROMISE, runProof, SHORT } from '../proof/run.ts';
import { formatTable } from '../proof/table.ts';

describe('the proof, short', () => {
  it('loses and duplicates no acknowledged review or deletion under any fault, fails no request where none may fail, and lets no attack through', async () => {
    const { rows } = await runProof(SHORT);
    console.log(formatTable(rows));

    expect(rows.map((row) => row.scenario)).toEqual([
      'load',
      'baseline: the review transaction straight on PostgreSQL',
      'kill -9 of a cards replica',
      'kill -9 of a gateway replica',
      'NATS restarted',
      'PostgreSQL restarted',
      'Redis gone for 10 s',
      'rolling SIGTERM restart of the gateways and cards',
      'rolling SIGTERM restart of identity, organizations, billing and ai',
      'cards frozen for 5 s (deadlines fire)',
      ...ATTACKS.map((attack) => `attack: ${attack}`),
    ]);
    for (const row of rows) {
      expect(row.requests, row.scenario).toBeGreaterThan(0);
      expect({ scenario: row.scenario, lost: row.lost, duplicated: row.duplicated, notes: row.notes }).toEqual({
        scenario: row.scenario,
        lost: 0,
        duplicated: 0,
        notes: row.held ? row.notes : [],
      });
      if (row.promise === 'no failed request') expect(row.failures, row.scenario).toBe(0);
      if (row.promise === ATTACK_PROMISE) expect(row.breaches, row.scenario).toBe(0);
      expect(row.held, row.scenario).toBe(true);
    }
  }, 900_000);
});
