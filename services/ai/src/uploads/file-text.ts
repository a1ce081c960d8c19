// The text of an uploaded file: .md and .txt read as UTF-8 (anything else is refused as not text), PDFs
// through PDF.js (unpdf), both in a reading process of the pool (reader-pool.ts), with the size, page,
// unpacking, memory and time limits, each refusal in words the learner can act on.
import {
  AI_REASONS,
  NOTES_MAX_LENGTH,
  NOTES_MIN_LENGTH,
  UPLOAD_MAX_BYTES,
  UPLOAD_MAX_PAGES,
  uploadKind,
} from '@engram/contracts/ai';
import { Invalid } from '@engram/kit/errors';
import type { ReaderLimits, ReaderPool, ReadOutcome } from './reader-pool.js';

const MB = 1024 * 1024;

export interface FileText {
  text: string;
  pages: number;
}

/** The learner's words for a reading that gave no text. */
export function refusal(outcome: Exclude<ReadOutcome, { ok: true }>, limits: ReaderLimits): Invalid {
  const { unsupportedFile, fileTooLarge, fileTooComplex } = AI_REASONS;
  switch (outcome.refusal) {
    case 'not-text':
      return new Invalid('The file is not UTF-8 text.', unsupportedFile);
    case 'not-pdf':
      return new Invalid('The file is not a PDF.', unsupportedFile);
    case 'not-picture':
      return new Invalid('The picture could not be read as a JPEG, PNG or WebP image.', unsupportedFile);
    case 'unreadable':
    case 'crashed':
    case 'cancelled':
      return new Invalid('The PDF could not be read.', unsupportedFile);
    case 'too-many-pages':
      return new Invalid(`The PDF has ${outcome.pages} pages; at most ${UPLOAD_MAX_PAGES} can be used.`, fileTooLarge);
    case 'too-much-text':
      return new Invalid(
        `The PDF has more than ${NOTES_MAX_LENGTH.toLocaleString('en')} characters of text; at most ${NOTES_MAX_LENGTH.toLocaleString('en')} can be used.`,
        fileTooLarge,
      );
    case 'inflates-too-much':
      return new Invalid(
        `The PDF unpacks to more than ${Math.round(limits.maxInflatedBytes / MB)} MB of data, so it cannot be read safely.`,
        fileTooComplex,
      );
    case 'out-of-memory':
      return new Invalid(
        `The file needs more than ${Math.round(limits.memoryBytes / MB)} MB of memory to read, so it cannot be read safely.`,
        fileTooComplex,
      );
    case 'timed-out':
      return new Invalid(
        `The file took longer than ${limits.timeoutMs / 1000} seconds to read, so it cannot be read safely.`,
        fileTooComplex,
      );
  }
}

/** What a file's extension says it is, after the checks that need no reading. */
export function checkedUpload(fileName: string, content: Uint8Array) {
  const kind = uploadKind(fileName);
  if (!kind) throw new Invalid('Only .md, .txt and PDF files can be used.', AI_REASONS.unsupportedFile);
  if (content.byteLength === 0) throw new Invalid('The file is empty.', AI_REASONS.notesInvalid);
  if (content.byteLength > UPLOAD_MAX_BYTES) {
    throw new Invalid(`The file is larger than ${UPLOAD_MAX_BYTES / MB} MB.`, AI_REASONS.fileTooLarge);
  }
  return kind;
}

export async function fileText(
  reader: { pool: ReaderPool; limits: ReaderLimits },
  userId: string,
  fileName: string,
  content: Uint8Array,
  signal: AbortSignal,
): Promise<FileText> {
  const kind = checkedUpload(fileName, content);
  const outcome = await reader.pool.read(
    userId,
    {
      kind,
      content,
      maxPages: UPLOAD_MAX_PAGES,
      maxTextLength: NOTES_MAX_LENGTH,
      maxInflatedBytes: reader.limits.maxInflatedBytes,
    },
    signal,
  );
  if (!outcome.ok) throw refusal(outcome, reader.limits);
  if (!('text' in outcome)) throw new Invalid('The file could not be read.', AI_REASONS.unsupportedFile);
  const text = outcome.text.trim();
  if (text.length < NOTES_MIN_LENGTH) {
    throw new Invalid(
      kind === 'pdf' ? 'No text could be read from the PDF (is it a scan?).' : 'The file has too little text.',
      AI_REASONS.notesInvalid,
    );
  }
  if (text.length > NOTES_MAX_LENGTH) {
    throw new Invalid(
      `The file has ${text.length.toLocaleString('en')} characters of text; at most ${NOTES_MAX_LENGTH.toLocaleString('en')} can be used.`,
      AI_REASONS.fileTooLarge,
    );
  }
  return { text, pages: outcome.pages };
}
