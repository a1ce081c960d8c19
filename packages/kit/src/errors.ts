// Typed domain errors. Domain code throws these; exactly one gRPC server interceptor turns them into
// status codes (grpc/server.ts), and the gateway maps status codes to tRPC codes once. `reason` is a
// stable machine code (e.g. USAGE_LIMIT_REACHED) carried to the web app in the error data.
import { status } from '@grpc/grpc-js';

export class DomainError extends Error {
  readonly code: status = status.UNKNOWN;
  readonly reason: string | undefined;
  constructor(message: string, reason?: string) {
    super(message);
    this.name = new.target.name;
    this.reason = reason;
  }
}

export class NotFound extends DomainError {
  override readonly code = status.NOT_FOUND;
}
export class Conflict extends DomainError {
  override readonly code = status.ALREADY_EXISTS;
}
export class Invalid extends DomainError {
  override readonly code = status.INVALID_ARGUMENT;
}
export class FailedPrecondition extends DomainError {
  override readonly code = status.FAILED_PRECONDITION;
}
export class PermissionDenied extends DomainError {
  override readonly code = status.PERMISSION_DENIED;
}
/** A dependency outside the service (an outside API) cannot answer now; trying again later may work. */
export class Unavailable extends DomainError {
  override readonly code = status.UNAVAILABLE;
}
export class Unauthenticated extends DomainError {
  override readonly code = status.UNAUTHENTICATED;
}
/** A quota or rate limit of the caller's is used up (an API key's, for instance). */
export class ResourceExhausted extends DomainError {
  override readonly code = status.RESOURCE_EXHAUSTED;
}

/** The metadata key under which a DomainError's reason travels. */
export const REASON_METADATA_KEY = 'engram-reason';
