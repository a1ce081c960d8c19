// Describe: names the service, its version and its generator, so a deployment can be checked end to end over gRPC.
import type { DescribeRequest, DescribeResponse } from '@engram/proto/ai/v1/ai';

export function describe(version: string, generator: string) {
  return async (_request: DescribeRequest): Promise<DescribeResponse> => ({ service: 'ai', version, generator });
}
