// The ai procedures: uploading notes as a file, and generating card proposals (streamed).
import { generate, generateInput } from '../handlers/ai/generate.js';
import { upload, uploadInput } from '../handlers/ai/upload.js';
import { protectedProcedure, router } from '../trpc.js';

export const aiRouter = router({
  upload: protectedProcedure.input(uploadInput).mutation(upload),
  generate: protectedProcedure.input(generateInput).mutation(generate),
});
