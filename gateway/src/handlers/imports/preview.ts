// imports.preview: a CSV or TSV file's columns (with a guess at what each holds) and first rows, for the
// learner to choose which column is the front, the back, the tags and the type.
import type { ColumnRole } from '@engram/contracts/imports';
import { previewImportInput } from '@engram/contracts/imports';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { previewImportInput };

export interface ImportPreviewJson {
  format: 'csv' | 'tsv';
  encoding: string;
  delimiter: string;
  header: boolean;
  columns: { index: number; name: string; role: ColumnRole }[];
  rows: string[][];
}

export async function previewImport({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof previewImportInput>>): Promise<ImportPreviewJson> {
  const answer = await asUser(ctx).imports.previewImport(input);
  return {
    format: answer.format === 'tsv' ? 'tsv' : 'csv',
    encoding: answer.encoding,
    delimiter: answer.delimiter,
    header: answer.header,
    columns: answer.columns.map((column) => ({
      index: column.index,
      name: column.name,
      role: column.role as ColumnRole,
    })),
    rows: answer.rows.map((row) => row.fields),
  };
}
