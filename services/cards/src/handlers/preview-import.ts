// PreviewImport: a look at an uploaded CSV or TSV file before it is imported: its encoding, delimiter and
// header, its columns with a guess at what each holds, and its first rows. Only the file's first megabyte is
// read, however large the file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFormatOf } from '@engram/contracts/imports';
import { FailedPrecondition } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { PreviewImportRequest, PreviewImportResponse } from '@engram/proto/cards/v1/imports';
import { z } from 'zod';
import { previewCsv } from '../imports/csv.js';
import type { ImportServiceDeps } from '../imports/import-deps.js';
import { importUploadOf, uploadGone } from '../imports/upload-of.js';

const PREVIEW_BYTES = 1024 * 1024;

const previewInput = z.object({ uploadId: z.uuid('The file to import is not valid. Please send it again.') });

/** The first `limit` bytes of a stream (fewer when it is shorter); the rest is never read. */
async function firstBytes(body: AsyncIterable<Buffer>, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    // Leaving the loop destroys the stream: the rest of the file is not downloaded.
    if (size >= limit) break;
  }
  return Buffer.concat(chunks).subarray(0, limit);
}

export function previewImport({ db, store }: ImportServiceDeps) {
  return async (request: PreviewImportRequest, ctx: CallContext): Promise<PreviewImportResponse> => {
    const { uploadId } = parseInput(previewInput, request);
    const upload = await importUploadOf(db, store, ctx.caller.userId, uploadId);
    const format = importFormatOf(upload.name);
    if (format !== 'csv' && format !== 'tsv') {
      throw new FailedPrecondition('Only a CSV or TSV file has columns to choose.', 'IMPORT_NOT_CSV');
    }
    const object = await store.getObject(upload.objectKey);
    if (!object) throw uploadGone();
    const dir = await mkdtemp(join(tmpdir(), 'engram-preview-'));
    try {
      const path = join(dir, 'head');
      await writeFile(path, await firstBytes(object.body, PREVIEW_BYTES));
      const preview = await previewCsv(path);
      return {
        format,
        encoding: preview.encoding,
        delimiter: preview.delimiter,
        header: preview.header,
        columns: preview.columns,
        rows: preview.rows.map((fields) => ({ fields })),
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
