// `npm run proof -- --short` as part of npm test: the whole stack with two replicas of the gateway and of
// cards on private PostgreSQL, NATS and Redis, every scenario under load (an account deleted in each), every
// hostile learner under load, then every attack, and every promise held (needs the build: it runs the dist/
// files). A row holds only on evidence (bench/test/unit/proof-verdict.test.ts): nothing about a held row is excused.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ATTACKS } from '../bench/proof/attacks.ts';
import { ATTACK_PROMISE, runProof, SHORT } from '../bench/proof/run.ts';
import { formatTable } from '../bench/proof/table.ts';

describe('the proof, short', () => {
  it('refuses an --only that names nothing, before starting anything', () => {
    const cli = fileURLToPath(new URL('../bench/proof.ts', import.meta.url));
    const run = spawnSync(process.execPath, [cli, '--short', '--only', 'no such scenario'], { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr.trim() }).toEqual({
      status: 2,
      stderr: "--only 'no such scenario' names no scenario (nor 'attack'): see --help",
    });
  });

  it('loses and duplicates no acknowledged review or deletion under any fault, fails no request where none may fail, lets no hostile learner slow or restart anything for the others, and lets no attack through', async () => {
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
      'a poisoned package imported (fields generated at ~1 GB each)',
      'an optimization of a year of learning steps, lapses and breaks',
      'a flood of worst-case simulations (10,000 cards, 4 at once)',
      '50 late synced reviews of one card (before 450 stored)',
      ...ATTACKS.map((attack) => `attack: ${attack}`),
    ]);
    for (const row of rows) {
      expect(row.requests, row.scenario).toBeGreaterThan(0);
      // First what the failed requests answered: the problems below only count them.
      if (row.promise.startsWith('no failed request')) {
        expect({ scenario: row.scenario, failures: row.failures, failed: row.failed }).toEqual({
          scenario: row.scenario,
          failures: 0,
          failed: [],
        });
      }
      expect({ scenario: row.scenario, problems: row.problems }).toEqual({ scenario: row.scenario, problems: [] });
      expect({ scenario: row.scenario, lost: row.lost, duplicated: row.duplicated }).toEqual({
        scenario: row.scenario,
        lost: 0,
        duplicated: 0,
      });
      if (row.promise === ATTACK_PROMISE) expect(row.breaches, row.scenario).toBe(0);
      else if (!row.scenario.startsWith('baseline')) expect(row.restarts, row.scenario).toBe(0);
      expect(row.held, row.scenario).toBe(true);
    }
  }, 1_800_000);
});
