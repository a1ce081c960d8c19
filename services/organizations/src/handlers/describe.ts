// Describe: names the service and its version, so a deployment can be checked end to end over gRPC.
import type { DescribeRequest, DescribeResponse } from '@engram/proto/organizations/v1/organizations';

export function describe(version: string) {
  return async (_request: DescribeRequest): Promise<DescribeResponse> => ({ service: 'organizations', version });
}
