// Uploaded notes: .md and .txt read as text, a PDF's text extracted on the server, each kept for the
// learner's own generation; an unsupported, binary, empty, oversized or too long file refused with a
// clear message, keeping nothing. Generation from an upload uses the offline generator here.
import { randomUUID } from 'node:crypto';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AiHarness, startAiHarness } from '../harness.js';

const newUser = () => `learner-${randomUUID().slice(0, 8)}`;
let ai: AiHarness;

beforeAll(async () => {
  ai = await startAiHarness({ generator: 'offline' });
});
afterAll(() => ai?.stop());

async function pdf(pages: string[][]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = document.addPage([595, 842]);
    lines.forEach((line, i) => {
      page.drawText(line, { x: 50, y: 780 - i * 20, size: 12, font });
    });
  }
  return document.save();
}

describe('accepted files', () => {
  it('reads a Markdown file and generates cards from it', async () => {
    const user = newUser();
    const markdown = '# Cells\n\nThe mitochondrion is the powerhouse of the cell.\n';
    const upload = await ai.as(user).upload('biology.md', markdown);
    expect(upload).toMatchObject({ fileName: 'biology.md', characters: markdown.trim().length, pages: 0 });
    const result = await ai.as(user).generate({ fileId: upload.fileId, count: 3, types: ['basic'] });
    expect(result.proposals).toEqual([
      {
        type: 'basic',
        front: 'What is the mitochondrion?',
        back: 'The powerhouse of the cell.',
        tags: ['cells'],
        sourceQuote: 'The mitochondrion is the powerhouse of the cell.',
      },
    ]);
  });

  it('extracts the text of a PDF on the server', async () => {
    const user = newUser();
    const file = await pdf([
      ['Photosynthesis is the way plants turn light into sugar.'],
      ['Osmosis: water moving across a membrane.'],
    ]);
    const upload = await ai.as(user).upload('plants.pdf', file);
    expect(upload.pages).toBe(2);
    const result = await ai.as(user).generate({ fileId: upload.fileId, types: ['reversed'] });
    expect(result.proposals.map((p) => [p.front, p.back])).toEqual([
      ['Photosynthesis', 'The way plants turn light into sugar.'],
      ['Osmosis', 'Water moving across a membrane.'],
    ]);
  });
});

describe('refused files', () => {
  const refusals: [string, string, () => Promise<Uint8Array | string>, string][] = [
    [
      'an unsupported type',
      'slides.pptx',
      async () => 'some text of a presentation',
      'Only .md, .txt and PDF files can be used.',
    ],
    [
      'a binary file named .txt',
      'notes.txt',
      async () => new Uint8Array([0xff, 0xfe, 0x00, 0x41, 0x00]),
      'The file is not UTF-8 text.',
    ],
    ['an empty file', 'notes.md', async () => '', 'The file is empty.'],
    ['a file over 3 MB', 'notes.txt', async () => 'a'.repeat(3 * 1024 * 1024 + 1), 'The file is larger than 3 MB.'],
    [
      'text over the notes limit',
      'notes.txt',
      async () => 'word '.repeat(13_000),
      'The file has 64,999 characters of text; at most 60,000 can be used.',
    ],
    [
      'a PDF of more than 50 pages',
      'book.pdf',
      () => pdf(Array.from({ length: 51 }, (_, i) => [`Page ${i + 1} is a page.`])),
      'The PDF has 51 pages; at most 50 can be used.',
    ],
    ['a PDF without text', 'scan.pdf', () => pdf([[]]), 'No text could be read from the PDF (is it a scan?).'],
    [
      'a file named .pdf that is not one',
      'fake.pdf',
      async () => 'just text, not a PDF at all',
      'The file is not a PDF.',
    ],
  ];
  for (const [what, fileName, content, message] of refusals) {
    it(`refuses ${what} with a clear message and keeps nothing`, async () => {
      const user = newUser();
      const failure = await grpcFailure(ai.as(user).upload(fileName, await content()));
      expect(failure.code).toBe(status.INVALID_ARGUMENT);
      expect(failure.message).toBe(message);
      expect(await ai.db.uploadedFile.count({ where: { userId: user } })).toBe(0);
    });
  }
});
