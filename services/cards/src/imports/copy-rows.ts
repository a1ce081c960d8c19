// Rows written into a table with COPY … FROM STDIN in PostgreSQL's text format (pg-copy-streams): for the import's
// largest tables, where a statement's parameter arrays cost PostgreSQL more to read than the rows cost to insert
// (README, `bench/run.ts collection`). The rows go in blocks of about 64 KB as the socket takes them.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export type CopyCell = string | number | boolean | null;

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value in COPY's text format: `\N` for null, t or f, and the characters the format gives a meaning escaped. */
export function copyCell(value: CopyCell): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  // NaN and ±Infinity are spelled as PostgreSQL's floats read them.
  if (typeof value === 'number') return String(value);
  return value.replace(/[\\\t\n\r]/g, (char) => ESCAPES[char] as string);
}

const BLOCK_CHARS = 64 * 1024;

/** Writes `rows` (each a value per one of `columns`) into `table` over `client` with one COPY. */
export async function copyRows(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly CopyCell[]>,
): Promise<void> {
  function* blocks() {
    let block = '';
    for (const row of rows) {
      block += `${row.map(copyCell).join('\t')}\n`;
      if (block.length >= BLOCK_CHARS) {
        yield block;
        block = '';
      }
    }
    if (block) yield block;
  }
  await pipeline(Readable.from(blocks()), client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)));
}
