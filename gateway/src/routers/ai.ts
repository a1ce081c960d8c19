// The ai procedures: uploading notes as a file, generating card proposals (streamed), and proposing an occlusion
// card's shapes over its picture.
import { generate, generateInput } from '../handlers/ai/generate.js';
import { proposeOcclusions, proposeOcclusionsInput } from '../handlers/ai/propose-occlusions.js';
import { upload, uploadInput } from '../handlers/ai/upload.js';
import { protectedProcedure, router } from '../trpc.js';

export const aiRouter = router({
  upload: protectedProcedure.input(uploadInput).mutation(upload),
  generate: protectedProcedure.input(generateInput).mutation(generate),
  proposeOcclusions: protectedProcedure.input(proposeOcclusionsInput).mutation(proposeOcclusions),
});
