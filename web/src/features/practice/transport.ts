// How a practice session's reviews reach the server (features/practice/session.ts's Transport). Online, each goes
// at once (cards.review) and the state the server answers is kept on the device too, so a session started offline
// later begins from it. When the network fails (or the browser says it is offline), the review is queued on the
// device with the time it was rated and scheduled there (device.ts), and the session goes on at once; the queue
// syncs when the server answers again. A review id sent both ways (an answer lost on its way back) counts once.

import { deviceOf } from '../../entities/offline/device';
import { httpStatus } from '../../lib/error-codes';
import { trpcClient } from '../../lib/trpc';
import type { Review } from './session';

/** No answer came back: the request never reached the server, or its answer never reached us. */
export const isNetworkFailure = (error: unknown) => httpStatus(error) === undefined;

export function practiceTransport(userId: string) {
  return {
    async review(review: Review) {
      const device = await deviceOf(userId);
      if (navigator.onLine) {
        try {
          const { reviewedAt: _, ...sent } = review;
          const answer = await trpcClient.cards.review.mutate(sent);
          await device.keepServerState(review, answer);
          return answer;
        } catch (error) {
          if (!isNetworkFailure(error)) throw error;
        }
      }
      // A session saved by the version before this one (a reload across an update) carries no time: now.
      return device.recordReview({ ...review, reviewedAt: review.reviewedAt ?? new Date().toISOString() });
    },
    async undo(reviewId: string) {
      const device = await deviceOf(userId);
      if (navigator.onLine && !(await device.isQueued(reviewId))) {
        try {
          return await trpcClient.cards.undoReview.mutate({ reviewId });
        } catch (error) {
          if (!isNetworkFailure(error)) throw error;
        }
      }
      return device.recordUndo(reviewId);
    },
  };
}
