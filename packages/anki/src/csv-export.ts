// Engram cards to a CSV file, written as a stream (a card at a time, waiting when the disk is behind): UTF-8
// with a byte-order mark (so spreadsheet apps do not guess another encoding), a header row `front,back,tags,
// type`, CRLF line ends and RFC 4180 quoting (a field with a comma, quote or line break is quoted, its quotes
// doubled). Front and back are the cards' Markdown as they are; tags are separated by spaces, and since
// Engram's CSV import also splits tags on commas and semicolons, those and spaces inside a tag name become
// `_`. Engram's own CSV import reads the file back as the same cards.

import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { CardType } from '@engram/contracts/learning';

/** What a CSV row holds of a card (an EngramExportCard has it all). */
export interface CsvExportCard {
  type: CardType;
  front: string;
  back: string;
  tags: string[];
}

export interface CsvExport {
  /** Writes one card's row. */
  addCard(card: CsvExportCard): Promise<void>;
  /** Ends the file; resolves with the number of cards written once it is on disk. */
  finish(): Promise<number>;
  /** Stops and removes the file. */
  abort(): Promise<void>;
}

export const CSV_HEADER = ['front', 'back', 'tags', 'type'] as const;

/** One field, quoted when RFC 4180 asks for it (or when spaces at its ends would be trimmed). */
export function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A tag name as one word of the tags cell. */
export const csvTag = (tag: string) => tag.trim().replace(/[\s,;]+/g, '_');

export const csvRow = (fields: readonly string[]) => `${fields.map(csvField).join(',')}\r\n`;

/** Starts a CSV export to `outPath`. */
export function createCsvExport(outPath: string): CsvExport {
  const out: WriteStream = createWriteStream(outPath, { encoding: 'utf8' });
  let failure: Error | undefined;
  out.on('error', (error) => {
    failure = error;
  });
  let count = 0;
  let open = true;
  const write = async (text: string) => {
    if (failure) throw failure;
    if (!out.write(text)) await once(out, 'drain');
    if (failure) throw failure;
  };
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    await write(`\uFEFF${csvRow(CSV_HEADER)}`);
  };

  return {
    async addCard(card) {
      if (!open) throw new Error('This CSV export is closed.');
      await start();
      const tags = [...new Set(card.tags.map(csvTag).filter(Boolean))].join(' ');
      await write(csvRow([card.front, card.back, tags, card.type]));
      count++;
    },
    async finish() {
      if (!open) throw new Error('This CSV export is closed.');
      await start();
      open = false;
      out.end();
      await once(out, 'close');
      if (failure) throw failure;
      return count;
    },
    async abort() {
      if (!open) return;
      open = false;
      // The file is opened in the background: until the stream has closed, removing it could come before the
      // open creates it, and the file would stay behind.
      const closed = out.closed ? Promise.resolve() : once(out, 'close').catch(() => undefined);
      out.destroy();
      await closed;
      await rm(outPath, { force: true });
    },
  };
}
