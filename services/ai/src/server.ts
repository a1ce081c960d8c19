// Registers the ai service's gRPC handlers: usage, uploads, streamed generation, occlusion shape proposals and the
// caller's part of a data export.
import { implement, type ServerOptions } from '@engram/kit/grpc/server';
import { AiServiceService } from '@engram/proto/ai/v1/ai';
import type { AiDeps } from './deps.js';
import { describe } from './handlers/describe.js';
import { exportUserData } from './handlers/export-user-data.js';
import { generate } from './handlers/generate.js';
import { getUsage } from './handlers/get-usage.js';
import { proposeOcclusions } from './handlers/propose-occlusions.js';
import { upload } from './handlers/upload.js';

export function aiService(deps: AiDeps, options: ServerOptions & { version: string }) {
  return {
    name: 'engram.ai.v1.AiService',
    definition: AiServiceService,
    implementation: implement(
      AiServiceService,
      {
        describe: { access: 'service', handle: describe(options.version, deps.generator.name) },
        getUsage: { handle: getUsage(deps) },
        upload: { handle: upload(deps) },
        generate: { handle: generate(deps) },
        proposeOcclusions: { handle: proposeOcclusions(deps) },
        exportUserData: { handle: exportUserData(deps) },
      },
      options,
    ),
  };
}
