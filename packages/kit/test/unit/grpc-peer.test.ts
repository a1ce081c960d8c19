// A peer that is down or too slow is the caller's "try again" (Unavailable, in the caller's words); what
// the peer refuses, and anything else, passes on unchanged.
import { Unavailable } from '@engram/kit/errors';
import { GrpcCallError } from '@engram/kit/grpc/client';
import { askPeer } from '@engram/kit/grpc/peer';
import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';

const answered = (code: status) =>
  new GrpcCallError(
    Object.assign(new Error('peer said no'), {
      code,
      details: 'peer said no',
      metadata: new Metadata(),
    }) as ServiceError,
  );

const WORDS = 'Cards cannot be reached right now. Please try again.';

describe('a call to a peer', () => {
  it('gives the answer when the peer answers', async () => {
    expect(await askPeer(WORDS, async () => 42)).toBe(42);
  });

  it.each([status.UNAVAILABLE, status.DEADLINE_EXCEEDED])(
    'is Unavailable in the caller’s words when the peer answers %s',
    async (code) => {
      const refusal = await askPeer(WORDS, () => Promise.reject(answered(code))).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(Unavailable);
      expect((refusal as Error).message).toBe(WORDS);
    },
  );

  it.each([status.NOT_FOUND, status.PERMISSION_DENIED, status.INVALID_ARGUMENT, status.CANCELLED])(
    'passes the peer’s own answer %s on unchanged',
    async (code) => {
      const error = answered(code);
      await expect(askPeer(WORDS, () => Promise.reject(error))).rejects.toBe(error);
    },
  );

  it('passes any other error on unchanged', async () => {
    const error = new TypeError('bug');
    await expect(askPeer(WORDS, () => Promise.reject(error))).rejects.toBe(error);
  });
});
