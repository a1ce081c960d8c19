// The process that reads one uploaded file (started by reader-pool.ts, one per file, then ended): text
// files decoded as UTF-8, PDFs measured for what their streams unpack to and only then read by PDF.js,
// page by page, stopping once the text passes the limit; a picture (an occlusion card's, for the offline
// proposer) decoded by sharp and searched for its labels' regions (picture-regions.ts). It answers its parent once, over IPC, with the
// text or with what was wrong (@engram/kit/sandbox). It runs with a capped heap and is killed when over its
// memory or time, so whatever a hostile file does to it ends here.
import { answerParent } from '@engram/kit/sandbox/answer-parent';
import { getDocumentProxy } from 'unpdf';
import { inflatedSize } from './inflated-size.ts';
import { type PictureRegion, pictureRegions } from './picture-regions.ts';

/** A file of notes to read the text of. */
export interface TextRequest {
  kind: 'markdown' | 'text' | 'pdf';
  content: Uint8Array;
  maxPages: number;
  maxTextLength: number;
  maxInflatedBytes: number;
}

/** A picture to find the regions of that look like labels. */
export interface PictureRequest {
  kind: 'picture';
  content: Uint8Array;
  maxRegions: number;
}

export type ReadRequest = TextRequest | PictureRequest;

export type ReadAnswer =
  | { ok: true; text: string; pages: number }
  | { ok: true; regions: PictureRegion[] }
  | { ok: false; refusal: 'not-picture' }
  | { ok: false; refusal: 'not-text' | 'not-pdf' | 'unreadable' | 'inflates-too-much' }
  | { ok: false; refusal: 'too-many-pages'; pages: number }
  | { ok: false; refusal: 'too-much-text' };

function plainText(content: Uint8Array): ReadAnswer {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(content);
    if (text.includes('\u0000')) return { ok: false, refusal: 'not-text' };
    return { ok: true, text: text.replace(/^\uFEFF/, ''), pages: 0 };
  } catch {
    return { ok: false, refusal: 'not-text' };
  }
}

/** As unpdf's extractText with mergePages: line structure kept, runs of blanks collapsed. */
function merged(pages: string[]): string {
  return pages
    .join('\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n');
}

async function pdfText(request: TextRequest): Promise<ReadAnswer> {
  const { content } = request;
  if (!Buffer.from(content.subarray(0, 5)).equals(Buffer.from('%PDF-'))) return { ok: false, refusal: 'not-pdf' };
  if ((await inflatedSize(content, request.maxInflatedBytes)) > request.maxInflatedBytes) {
    return { ok: false, refusal: 'inflates-too-much' };
  }
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // PDF.js refuses a Buffer (what the parent's Buffer arrives as); a plain view of the same bytes it takes.
    document = await getDocumentProxy(new Uint8Array(content.buffer, content.byteOffset, content.byteLength));
  } catch {
    return { ok: false, refusal: 'unreadable' };
  }
  if (document.numPages > request.maxPages) return { ok: false, refusal: 'too-many-pages', pages: document.numPages };
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const { items } = await page.getTextContent();
    pages.push(items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
    page.cleanup();
    if (merged(pages).trim().length > request.maxTextLength) return { ok: false, refusal: 'too-much-text' };
  }
  return { ok: true, text: merged(pages), pages: document.numPages };
}

async function regions(request: PictureRequest): Promise<ReadAnswer> {
  const found = await pictureRegions(request.content, request.maxRegions);
  return found ? { ok: true, regions: found } : { ok: false, refusal: 'not-picture' };
}

function read(request: ReadRequest): Promise<ReadAnswer> {
  if (request.kind === 'picture') return regions(request);
  return request.kind === 'pdf' ? pdfText(request) : Promise.resolve(plainText(request.content));
}

answerParent<ReadRequest, ReadAnswer>((request) =>
  read(request).catch(() => ({ ok: false, refusal: 'unreadable' }) satisfies ReadAnswer),
);
