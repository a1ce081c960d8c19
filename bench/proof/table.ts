// The proof's printout: one row per scenario (requests, failures, lost, duplicated, p50/p99) and per
// attack (calls made, breaches: calls that got through, leaked, changed something or answered 5xx), whether
// its promise held, then what broke, if anything.
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
  held: boolean;
  notes: string[];
  /** An attack's row: how many of its calls got through (failures, lost and duplicated do not apply). */
  breaches?: number;
}

export function formatTable(rows: Row[]): string {
  const header = ['scenario', 'requests', 'failures', 'lost', 'duplicated', 'breaches', 'p50', 'p99', 'promise'];
  const attack = (row: Row, value: number) => (row.breaches === undefined ? String(value) : '-');
  const cells = rows.map((row) => [
    row.scenario,
    String(row.requests),
    attack(row, row.failures),
    attack(row, row.lost),
    attack(row, row.duplicated),
    row.breaches === undefined ? '-' : String(row.breaches),
    ms(row.p50),
    ms(row.p99),
    `${row.held ? 'held' : 'BROKEN'}: ${row.promise}`,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => (line[i] as string).length)));
  const line = (values: string[]) =>
    values
      .map((value, i) => (i === 0 || i === 8 ? value.padEnd(widths[i] ?? 0) : value.padStart(widths[i] ?? 0)))
      .join('  ');
  const notes = rows.flatMap((row) => row.notes.map((note) => `  ${row.scenario}: ${note}`));
  return [line(header), ...cells.map(line), ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}
