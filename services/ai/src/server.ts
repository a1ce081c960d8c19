// Registers the ai service's gRPC handlers. Its features arrive with their own issues; until then
// it serves Describe and the standard health service.
import { implement, type ServerOptions } from '@engram/kit/grpc/server';
import { AiServiceService } from '@engram/proto/ai/v1/ai';
import { describe } from './handlers/Describe.js';

export function aiService(options: ServerOptions & { version: string }) {
  return {
    name: 'engram.ai.v1.AiService',
    definition: AiServiceService,
    implementation: implement(
      AiServiceService,
      { describe: { access: 'service', handle: describe(options.version) } },
      options,
    ),
  };
}
