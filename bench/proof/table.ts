// The proof's printout: one row per scenario (requests, failures, lost, duplicated, p50/p99) and whether
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
}

export function formatTable(rows: Row[]): string {
  const header = ['scenario', 'requests', 'failures', 'lost', 'duplicated', 'p50', 'p99', 'promise'];
  const cells = rows.map((row) => [
    row.scenario,
    String(row.requests),
    String(row.failures),
    String(row.lost),
    String(row.duplicated),
    ms(row.p50),
    ms(row.p99),
    `${row.held ? 'held' : 'BROKEN'}: ${row.promise}`,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => (line[i] as string).length)));
  const line = (values: string[]) =>
    values
      .map((value, i) => (i === 0 || i === 7 ? value.padEnd(widths[i] ?? 0) : value.padStart(widths[i] ?? 0)))
      .join('  ');
  const notes = rows.flatMap((row) => row.notes.map((note) => `  ${row.scenario}: ${note}`));
  return [line(header), ...cells.map(line), ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}
