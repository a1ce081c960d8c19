// The orgs procedures: learning together in an organization (shared decks, assignments, progress). Each
// is checked by the organizations service against the caller's membership and permissions.
import {
  assignmentInput,
  assignments,
  createAssignment,
  createAssignmentInput,
  deckInput,
  decks,
  deleteAssignment,
  deleteDeck,
  listAssignmentsInput,
  listDecksInput,
  progress,
  progressInput,
  publishDeck,
  publishDeckInput,
  subscribe,
  syncDeck,
  unsubscribe,
} from '../handlers/orgs/orgs.js';
import { protectedProcedure, router } from '../trpc.js';

export const orgsRouter = router({
  decks: protectedProcedure.input(listDecksInput).query(decks),
  publishDeck: protectedProcedure.input(publishDeckInput).mutation(publishDeck),
  syncDeck: protectedProcedure.input(deckInput).mutation(syncDeck),
  deleteDeck: protectedProcedure.input(deckInput).mutation(deleteDeck),
  subscribe: protectedProcedure.input(deckInput).mutation(subscribe),
  unsubscribe: protectedProcedure.input(deckInput).mutation(unsubscribe),
  assignments: protectedProcedure.input(listAssignmentsInput).query(assignments),
  createAssignment: protectedProcedure.input(createAssignmentInput).mutation(createAssignment),
  deleteAssignment: protectedProcedure.input(assignmentInput).mutation(deleteAssignment),
  progress: protectedProcedure.input(progressInput).query(progress),
});
