// The import procedures: a look at a CSV file's columns, starting an import of an uploaded file, and
// following it (API names from issue "bring your collection").
import { getImport, getImportInput } from '../handlers/imports/get.js';
import { listImports, listImportsInput } from '../handlers/imports/list.js';
import { previewImport, previewImportInput } from '../handlers/imports/preview.js';
import { startImport, startImportInput } from '../handlers/imports/start.js';
import { protectedProcedure, router } from '../trpc.js';

export const importsRouter = router({
  preview: protectedProcedure.input(previewImportInput).query(previewImport),
  start: protectedProcedure.input(startImportInput).mutation(startImport),
  get: protectedProcedure.input(getImportInput).query(getImport),
  list: protectedProcedure.input(listImportsInput).query(listImports),
});
