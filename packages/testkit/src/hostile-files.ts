// Hostile uploads made on the fly (ai's tests and the gateway's): PDFs whose one page's content is a
// FlateDecode stream of zeros that inflates to any size (the deflate blocks of 1 MB of zeros repeated, so
// making a GB costs nothing), once or twice compressed; a page of far more text than its size; and a
// harmless PDF made heavy. The PDFs are
// written by hand, with a correct cross-reference table.
import { randomBytes } from 'node:crypto';
import { constants, deflateRawSync, deflateSync } from 'node:zlib';

const MB = 1024 * 1024;

/** A zlib stream that inflates to `megabytes` MB of zeros, about a thousandth of that in size. */
export function deflatedZeros(megabytes: number): Buffer {
  // A full flush ends the block byte-aligned and forgets the window, so the same bytes can follow themselves.
  const block = deflateRawSync(Buffer.alloc(MB), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const adler = Buffer.alloc(4);
  // Adler-32 of n zeros: a = 1, b = n mod 65521.
  adler.writeUInt32BE(((((megabytes * MB) % 65521) << 16) | 1) >>> 0);
  const finalEmptyBlock = Buffer.from([0x03, 0x00]);
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array(megabytes).fill(block), finalEmptyBlock, adler]);
}

const FONTS = '<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>';

/** A one-page PDF whose content stream is `stream`, decoded by `filters`, and `padding` (an unused stream). */
export function pdfWithContent(stream: Buffer, filters: string[], padding?: Buffer): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources ${FONTS} >>`,
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let length = parts[0]?.length ?? 0;
  const add = (part: Buffer) => {
    parts.push(part);
    length += part.length;
  };
  objects.forEach((body, i) => {
    offsets.push(length);
    add(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`));
  });
  offsets.push(length);
  const filter = filters.length > 0 ? ` /Filter [${filters.map((name) => `/${name}`).join(' ')}]` : '';
  add(Buffer.from(`4 0 obj\n<< /Length ${stream.length}${filter} >>\nstream\n`));
  add(stream);
  add(Buffer.from('\nendstream\nendobj\n'));
  if (padding) {
    offsets.push(length);
    add(Buffer.from(`5 0 obj\n<< /Length ${padding.length} >>\nstream\n`));
    add(padding);
    add(Buffer.from('\nendstream\nendobj\n'));
  }
  const xref = length;
  const count = offsets.length + 1;
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  add(
    Buffer.from(
      `xref\n0 ${count}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}

/** A harmless PDF of one line of text that weighs `bytes` more than it needs to. */
export const paddedTextPdf = (line: string, bytes: number) =>
  pdfWithContent(Buffer.from(`BT /F1 12 Tf 50 780 Td (${line}) Tj ET`), [], randomBytes(bytes));

/** A PDF of a few KB whose one page shows `lines` lines of 50 letters (over and over on the same 80 rows). */
export const textBomb = (lines: number) => {
  const rows = Array.from({ length: lines }, (_, i) => `1 0 0 1 20 ${820 - (i % 80) * 10} Tm (${'a'.repeat(50)}) Tj`);
  return pdfWithContent(deflateSync(Buffer.from(`BT /F1 8 Tf\n${rows.join('\n')}\nET`)), ['FlateDecode']);
};

/** A PDF of a few hundred KB whose page content inflates to `megabytes` MB. */
export const flateBomb = (megabytes: number) => pdfWithContent(deflatedZeros(megabytes), ['FlateDecode']);

/** The same bomb compressed twice: its outer stream unpacks to only a thousandth of what the inner one does. */
export const nestedFlateBomb = (megabytes: number) =>
  pdfWithContent(deflateSync(deflatedZeros(megabytes)), ['FlateDecode', 'FlateDecode']);
