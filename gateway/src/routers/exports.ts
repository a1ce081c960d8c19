// The export procedures: taking the learner's cards or all their data out, and following it to its download
// link (API names from issue "bring your collection").
import { getExport, getExportInput } from '../handlers/exports/get.js';
import { listExports, listExportsInput } from '../handlers/exports/list.js';
import { startExport, startExportInput } from '../handlers/exports/start.js';
import { protectedProcedure, router } from '../trpc.js';

export const exportsRouter = router({
  start: protectedProcedure.input(startExportInput).mutation(startExport),
  get: protectedProcedure.input(getExportInput).query(getExport),
  list: protectedProcedure.input(listExportsInput).query(listExports),
});
