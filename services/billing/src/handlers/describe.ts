// Describe: names the service and its version, so a deployment can be checked end to end over gRPC.
import type { DescribeRequest, DescribeResponse } from '@engram/proto/billing/v1/billing';

export function describe(version: string) {
  return async (_request: DescribeRequest): Promise<DescribeResponse> => ({ service: 'billing', version });
}
