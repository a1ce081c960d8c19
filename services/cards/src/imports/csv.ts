// Reading a CSV or TSV file of cards, as spreadsheets, Quizlet ("term<TAB>definition" lines) and other
// apps export them: its encoding (a byte-order mark, else detected; UTF-8, UTF-16 and the Western code
// pages) and its delimiter are found from the start of the file, a header row is recognised by its names,
// and each column gets a guess at what it holds. Anki's own text export ("Notes in Plain Text") starts with
// header lines such as `#separator:tab`, `#columns:Front\tBack\tTags` and `#tags column:3`: they are read for
// the layout and skipped. The rows are read as a stream, never the whole file at once.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import chardet from 'chardet';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';

export type ColumnRole = 'front' | 'back' | 'tags' | 'type' | 'ignore';

export interface CsvLayout {
  encoding: string;
  delimiter: string;
  /** Whether the first row names the columns. */
  header: boolean;
  /** Lines before the rows that are Anki's file headers (`#key:value`), skipped. */
  skipLines?: number;
}

/** What Anki's text export says of itself in its first lines. */
export interface AnkiTextHeaders {
  lines: number;
  delimiter?: string;
  columns?: string[];
  /** The tags column, counted from 0. */
  tagsColumn?: number;
}

const ANKI_SEPARATORS: Record<string, string> = {
  tab: '\t',
  comma: ',',
  semicolon: ';',
  pipe: '|',
  space: ' ',
  colon: ':',
};

/** Anki's header lines at the start of `text` (none for any other file). */
export function ankiTextHeaders(text: string): AnkiTextHeaders {
  const found: AnkiTextHeaders = { lines: 0 };
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const line of lines) {
    const header = /^#([a-z ]+):(.*)$/.exec(line);
    if (!header) break;
    found.lines++;
    const [, key, value = ''] = header;
    if (key === 'separator') {
      const named = ANKI_SEPARATORS[value.trim().toLowerCase()];
      found.delimiter = named ?? (value.length === 1 ? value : undefined);
    } else if (key === 'tags column') {
      const column = Number.parseInt(value, 10);
      if (column > 0) found.tagsColumn = column - 1;
    } else if (key === 'columns') {
      found.columns = value.split(found.delimiter ?? '\t');
    }
  }
  return found;
}

export interface CsvPreview extends CsvLayout {
  columns: { index: number; name: string; role: ColumnRole }[];
  /** The first rows after the header, as read with the layout. */
  rows: string[][];
}

const SNIFF_BYTES = 64 * 1024;
const PREVIEW_ROWS = 5;
const DELIMITERS = ['\t', ',', ';', '|'] as const;
/** The longest field a row may hold: a card side's limit is far below, but a line must not exhaust memory. */
export const MAX_FIELD_BYTES = 1024 * 1024;

/** Column names apps use, by what they hold (lower case, without spaces or punctuation). */
const NAMES: Record<Exclude<ColumnRole, 'ignore'>, string[]> = {
  // Mochi names a card's text, both sides in one, its content.
  front: ['front', 'question', 'term', 'prompt', 'word', 'frente', 'pergunta', 'termo', 'text', 'content', 'conteudo'],
  back: ['back', 'answer', 'definition', 'meaning', 'verso', 'resposta', 'definicao', 'extra'],
  tags: ['tags', 'tag', 'deck', 'etiquetas', 'marcadores'],
  type: ['type', 'cardtype', 'tipo'],
};

const key = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

function roleOfName(name: string): ColumnRole | undefined {
  const wanted = key(name);
  for (const [role, names] of Object.entries(NAMES) as [Exclude<ColumnRole, 'ignore'>, string[]][]) {
    if (names.includes(wanted)) return role;
  }
  return undefined;
}

async function head(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await file.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** Whether `bytes` (the start of a file, perhaps cut inside a character) are valid UTF-8. */
function isUtf8(bytes: Buffer): boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let cut = 0; cut <= 3 && cut < bytes.length; cut++) {
    try {
      decoder.decode(bytes.subarray(0, bytes.length - cut));
      return true;
    } catch {
      // Perhaps a character cut at the end: try a byte shorter.
    }
  }
  return bytes.length === 0;
}

/** The file's encoding: its byte-order mark, valid UTF-8, else what chardet finds (UTF-8 when unsure). */
export function encodingOf(bytes: Buffer): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (isUtf8(bytes)) return 'utf-8';
  const detected = chardet.detect(bytes)?.toLowerCase();
  if (!detected || detected === 'ascii') return 'utf-8';
  return iconv.encodingExists(detected) ? detected : 'utf-8';
}

/** Counts `delimiter` per line outside double quotes. */
function countsPerLine(text: string, delimiter: string): number[] {
  const counts: number[] = [];
  let quoted = false;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === delimiter) count++;
    else if (!quoted && char === '\n') {
      counts.push(count);
      count = 0;
    }
  }
  if (count > 0) counts.push(count);
  return counts;
}

/** The delimiter that splits the first lines into the same number (≥ 1) of parts most consistently. */
export function delimiterOf(text: string): string {
  let best: { delimiter: string; score: number } = { delimiter: ',', score: -1 };
  for (const delimiter of DELIMITERS) {
    const counts = countsPerLine(text, delimiter).slice(0, 50);
    if (counts.length === 0) continue;
    const first = counts[0] ?? 0;
    if (first === 0) continue;
    const same = counts.filter((count) => count === first).length / counts.length;
    const score = same * 10 + Math.min(first, 5);
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

/** Rows of `path` as read with `layout`, each with the line it starts on (1 is the file's first). */
export async function* csvRows(path: string, layout: CsvLayout): AsyncGenerator<{ line: number; fields: string[] }> {
  const parser = parse({
    delimiter: layout.delimiter,
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: MAX_FIELD_BYTES,
    info: true,
    raw: true,
    from_line: (layout.skipLines ?? 0) + 1,
  });
  // A failure anywhere (an unreadable file, a record over the limit) ends the iteration with that error.
  pipeline(createReadStream(path), iconv.decodeStream(layout.encoding), parser, () => undefined);
  let first = true;
  for await (const record of parser as AsyncIterable<{ record: string[]; raw: string; info: { lines: number } }>) {
    if (first && layout.header) {
      first = false;
      continue;
    }
    first = false;
    // info.lines is where the record ends; a field holding line breaks started that many lines before.
    const breaks = record.raw.replace(/\r?\n$/, '').split('\n').length - 1;
    yield { line: record.info.lines - breaks, fields: record.record };
  }
}

/** The layout of `path` and a look at its first rows, with a guess at each column's role. */
export async function previewCsv(path: string): Promise<CsvPreview> {
  const bytes = await head(path);
  const encoding = encodingOf(bytes);
  const text = iconv.decode(bytes, encoding);
  const anki = ankiTextHeaders(text);
  const skipLines = anki.lines;
  const delimiter = anki.delimiter ?? delimiterOf(text.split('\n').slice(skipLines).join('\n'));
  const rows: string[][] = [];
  for await (const { fields } of csvRows(path, { encoding, delimiter, header: false, skipLines })) {
    rows.push(fields);
    if (rows.length > PREVIEW_ROWS) break;
  }
  // Anki names the columns in a header line rather than in a first row.
  const names = anki.columns ?? rows[0] ?? [];
  const named = names.map(roleOfName);
  const header = !anki.columns && (named.some((role) => role === 'front') || named.filter(Boolean).length >= 2);
  const width = Math.max(0, ...rows.map((row) => row.length));
  const columns = Array.from({ length: width }, (_, index) => {
    const name = header || anki.columns ? (names[index] ?? '') : '';
    let role: ColumnRole = (header || anki.columns ? named[index] : undefined) ?? 'ignore';
    if (index === anki.tagsColumn) role = 'tags';
    // Without names: the first column is the front and the second the back (Quizlet's and most apps' order).
    if (!header && !anki.columns && index !== anki.tagsColumn)
      role = index === 0 ? 'front' : index === 1 ? 'back' : 'ignore';
    return { index, name, role };
  });
  // Two columns both guessed as the same role keep it on the first only.
  const seen = new Set<ColumnRole>();
  for (const column of columns) {
    if (column.role !== 'ignore' && seen.has(column.role)) column.role = 'ignore';
    seen.add(column.role);
  }
  return {
    encoding,
    delimiter,
    header,
    skipLines,
    columns,
    rows: (header ? rows.slice(1) : rows).slice(0, PREVIEW_ROWS),
  };
}
