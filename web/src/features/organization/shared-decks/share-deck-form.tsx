// "Share a deck": one of the caller's tags published as a deck for a team or the whole organization,
// checked with the contract's checkDeck (PublishDeck's own check) before orgs.publishDeck.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Button } from '../../../components/button';
import { SelectField } from '../../../components/select-field';
import { TeamSelectField } from '../../../components/team-select-field';
import { TextField } from '../../../components/text-field';
import { tagsOptions } from '../../../entities/cards/queries';
import { refreshSharedDecks } from '../../../entities/shared-decks/shared-decks';
import { useContractForm } from '../../../lib/form';
import { m } from '../../../lib/i18n';
import { trpc } from '../../../lib/trpc';
import type { SharedDecksContext } from './context';
import { deckProblems } from './problems';

const EMPTY = { name: '', description: '', tagId: '', teamId: '' };
type Draft = typeof EMPTY;

const toInput = (organizationId: string, draft: Draft) => ({
  organizationId,
  name: draft.name,
  tagId: draft.tagId,
  ...(draft.description.trim() && { description: draft.description }),
  ...(draft.teamId && { teamId: draft.teamId }),
});

/** Every tag of the caller's, fifty a page until the last. */
function useAllTags() {
  const tags = useInfiniteQuery(tagsOptions);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = tags;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return tags.data?.pages.flatMap((page) => page.items) ?? [];
}

export function ShareDeckForm({ context }: { context: SharedDecksContext }) {
  const tags = useAllTags();
  const form = useContractForm({
    initial: EMPTY,
    check: (draft: Draft) => deckProblems(toInput(context.organizationId, draft)),
    input: (draft) => toInput(context.organizationId, draft),
    mutation: trpc.orgs.publishDeck.mutationOptions(),
    reset: () => EMPTY,
    saved: (deck) => m.shared_decks_deck_shared({ name: deck.name }),
    invalidate: refreshSharedDecks,
  });
  const { draft, errors, set } = form;

  return (
    <form
      aria-labelledby="share-deck-heading"
      onSubmit={form.submit}
      noValidate
      className="mt-6 space-y-4 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <h3 id="share-deck-heading" className="font-semibold text-slate-900">
        {m.shared_decks_share_heading()}
      </h3>
      <p className="text-sm text-slate-600">{m.shared_decks_share_text()}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={m.shared_decks_deck_name()}
          name="name"
          value={draft.name}
          onChange={set('name')}
          error={errors.name}
        />
        <SelectField
          label={m.shared_decks_deck_tag()}
          name="tagId"
          value={draft.tagId}
          onChange={set('tagId')}
          error={errors.tagId}
        >
          <option value="">{m.shared_decks_deck_tag_choose()}</option>
          {tags.map((tag) => (
            <option key={tag.id} value={tag.id}>
              {tag.name}
            </option>
          ))}
        </SelectField>
      </div>
      <TextField
        label={m.shared_decks_deck_description()}
        name="description"
        value={draft.description}
        onChange={set('description')}
        error={errors.description}
        multiline
        rows={2}
      />
      <TeamSelectField
        label={m.shared_decks_shared_with()}
        value={draft.teamId}
        onChange={set('teamId')}
        teams={context.teams}
      />
      <Button type="submit" pending={form.pending}>
        {m.shared_decks_share_submit()}
      </Button>
    </form>
  );
}
