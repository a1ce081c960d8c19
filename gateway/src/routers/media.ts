// The media procedures: sending a file to the store, keeping a card's file, and the learner's files.
import { createUpload, createUploadInput } from '../handlers/media/create-upload.js';
import { deleteMedia, deleteMediaInput } from '../handlers/media/delete.js';
import { finishUpload, finishUploadInput } from '../handlers/media/finish-upload.js';
import { listMedia, listMediaInput } from '../handlers/media/list.js';
import { protectedProcedure, router } from '../trpc.js';

export const mediaRouter = router({
  createUpload: protectedProcedure.input(createUploadInput).mutation(createUpload),
  finishUpload: protectedProcedure.input(finishUploadInput).mutation(finishUpload),
  list: protectedProcedure.input(listMediaInput).query(listMedia),
  delete: protectedProcedure.input(deleteMediaInput).mutation(deleteMedia),
});
