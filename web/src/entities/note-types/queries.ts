// The learner's note types (issue 45): the stock ones, then their own by name, which the card form, the note types
// section of the settings and practice read.
import type { inferOutput } from '@trpc/tanstack-react-query';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';

export type NoteType = inferOutput<typeof trpc.cards.noteTypes>['items'][number];

export const noteTypesOptions = trpc.cards.noteTypes.queryOptions();

/** After a note type changed: the types, and the cards and due lists its notes are in. */
export const refreshNoteTypes = async () => {
  await queryClient.invalidateQueries({ queryKey: trpc.cards.pathKey() });
};

/** The note types a note is written in fields of: the stock ones made of a card type are written as that card. */
export const fieldNoteTypes = (types: readonly NoteType[]) =>
  types.filter((type) => !type.stock || type.id === 'optional-reversed');
