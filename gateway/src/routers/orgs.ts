// The orgs procedures: an organization's shared decks, assignments and members' progress. Each is checked
// by the organizations service against the caller's membership and permissions.
import { assignments, listAssignmentsInput } from '../handlers/orgs/assignments.js';
import { createAssignment, createAssignmentInput } from '../handlers/orgs/create-assignment.js';
import { decks, listDecksInput } from '../handlers/orgs/decks.js';
import { assignmentInput, deleteAssignment } from '../handlers/orgs/delete-assignment.js';
import { deckInput, deleteDeck } from '../handlers/orgs/delete-deck.js';
import { progress, progressInput } from '../handlers/orgs/progress.js';
import { publishDeck, publishDeckInput } from '../handlers/orgs/publish-deck.js';
import { subscribe } from '../handlers/orgs/subscribe.js';
import { syncDeck } from '../handlers/orgs/sync-deck.js';
import { unsubscribe } from '../handlers/orgs/unsubscribe.js';
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
