// The text of an uploaded file: .md and .txt read as UTF-8 (anything else is refused as not text), PDFs
// through PDF.js (unpdf), with the size and page limits, each refusal in words the learner can act on.
import {
  AI_REASONS,
  NOTES_MAX_LENGTH,
  NOTES_MIN_LENGTH,
  UPLOAD_MAX_BYTES,
  UPLOAD_MAX_PAGES,
  uploadKind,
} from '@engram/contracts/ai';
import { Invalid } from '@engram/kit/errors';
import { extractText, getDocumentProxy } from 'unpdf';

const MB = 1024 * 1024;

export interface FileText {
  text: string;
  pages: number;
}

async function pdfText(content: Uint8Array): Promise<FileText> {
  if (!Buffer.from(content.subarray(0, 5)).equals(Buffer.from('%PDF-'))) {
    throw new Invalid('The file is not a PDF.', AI_REASONS.unsupportedFile);
  }
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    document = await getDocumentProxy(new Uint8Array(content));
  } catch {
    throw new Invalid('The PDF could not be read.', AI_REASONS.unsupportedFile);
  }
  try {
    if (document.numPages > UPLOAD_MAX_PAGES) {
      throw new Invalid(
        `The PDF has ${document.numPages} pages; at most ${UPLOAD_MAX_PAGES} can be used.`,
        AI_REASONS.fileTooLarge,
      );
    }
    const { text, totalPages } = await extractText(document, { mergePages: true });
    return { text, pages: totalPages };
  } finally {
    await document.cleanup();
    await document.loadingTask.destroy();
  }
}

function plainText(content: Uint8Array): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(content);
    if (text.includes('\u0000')) throw new Error('binary');
    return text.replace(/^\uFEFF/, '');
  } catch {
    throw new Invalid('The file is not UTF-8 text.', AI_REASONS.unsupportedFile);
  }
}

export async function fileText(fileName: string, content: Uint8Array): Promise<FileText> {
  const kind = uploadKind(fileName);
  if (!kind) throw new Invalid('Only .md, .txt and PDF files can be used.', AI_REASONS.unsupportedFile);
  if (content.byteLength === 0) throw new Invalid('The file is empty.', AI_REASONS.notesInvalid);
  if (content.byteLength > UPLOAD_MAX_BYTES) {
    throw new Invalid(`The file is larger than ${UPLOAD_MAX_BYTES / MB} MB.`, AI_REASONS.fileTooLarge);
  }
  const extracted = kind === 'pdf' ? await pdfText(content) : { text: plainText(content), pages: 0 };
  const text = extracted.text.trim();
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
  return { text, pages: extracted.pages };
}
