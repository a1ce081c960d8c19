// The proof's printout: one row per scenario (requests, failures, lost, duplicated, p50/p99 of the load, the
// other learners' review p99 over their idle p99, unasked restarts) and per attack (calls made, breaches: calls
// that got through, leaked, changed something or answered 5xx), whether its promise held, then why a row broke,
// what a hostile learner's act ended in, and what the failed requests answered.
import { ms } from '../measure.ts';

export interface Row {
  scenario: string;
  promise: string;
  requests: number;
  failures: number;
  lost: number;
  duplicated: number;
  p50: number;
  p99: number;
  /** The other learners' review p99 during the row ÷ their idle p99 (a scenario's row). */
  slowdown?: number;
  /** Exits of Engram's processes during the row that nobody asked for (a scenario's row). */
  restarts?: number;
  held: boolean;
  /** Why the row broke: none when it held. */
  problems: string[];
  /** What the failed requests answered, counted ('3 × cards.review 503 …'). */
  failed: string[];
  /** What a hostile learner's act ended in. */
  outcome?: string;
  /** An attack's row: how many of its calls got through (failures, lost and duplicated do not apply). */
  breaches?: number;
  /** How long the row took, readying and checking included (a scenario's row), and readying its hostile learner. */
  seconds?: number;
  readySeconds?: number;
}

const COLUMNS = [
  'scenario',
  'requests',
  'failures',
  'lost',
  'duplicated',
  'breaches',
  'p50',
  'p99',
  'slowdown',
  'restarts',
  'promise',
];

export function formatTable(rows: Row[]): string {
  const scenarioOnly = (row: Row, value: number) => (row.breaches === undefined ? String(value) : '-');
  const cells = rows.map((row) => [
    row.scenario,
    String(row.requests),
    scenarioOnly(row, row.failures),
    scenarioOnly(row, row.lost),
    scenarioOnly(row, row.duplicated),
    row.breaches === undefined ? '-' : String(row.breaches),
    ms(row.p50),
    ms(row.p99),
    row.slowdown === undefined ? '-' : `${row.slowdown.toFixed(1)} ×`,
    row.restarts === undefined ? '-' : String(row.restarts),
    `${row.held ? 'held' : 'BROKEN'}: ${row.promise}`,
  ]);
  const last = COLUMNS.length - 1;
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...cells.map((line) => (line[i] as string).length)));
  const line = (values: string[]) =>
    values
      .map((value, i) => (i === 0 || i === last ? value.padEnd(widths[i] ?? 0) : value.padStart(widths[i] ?? 0)))
      .join('  ');
  const notes = rows.flatMap((row) => [
    ...row.problems.map((problem) => `  ${row.scenario}: BROKEN: ${problem}`),
    ...(row.outcome ? [`  ${row.scenario}: ${row.outcome}`] : []),
    ...row.failed.map((failed) => `  ${row.scenario}: ${failed}`),
  ]);
  return [line(COLUMNS), ...cells.map(line), ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}
