// The learner's saved searches: one click runs one; the search in the box is saved under a name (the same name
// replaces it); a saved search is deleted from the list.
import { SAVED_SEARCH_NAME_MAX_LENGTH } from '@engram/contracts/browse';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/button';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { savedSearchesOptions } from './browse-calls';

export function SavedSearches({ query, onRun }: { query: string; onRun: (query: string) => void }) {
  const id = useId();
  const [name, setName] = useState('');
  const saved = useQuery(savedSearchesOptions);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.browse.savedSearches.queryKey() });
  const save = useMutation(
    trpc.browse.saveSearch.mutationOptions({
      onSuccess: async (search) => {
        setName('');
        toast.success(m.browse_search_saved({ name: search.name }));
        await refresh();
      },
      onError: toastError,
    }),
  );
  const remove = useMutation(
    trpc.browse.deleteSavedSearch.mutationOptions({ onSuccess: () => refresh(), onError: toastError }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() !== '' && query.trim() !== '') save.mutate({ name: name.trim(), query });
  };
  const items = saved.data?.items ?? [];
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 id={`${id}-heading`} className="text-sm font-semibold text-slate-900">
        {m.browse_saved_title()}
      </h2>
      {items.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">{m.browse_saved_none()}</p>
      ) : (
        <ul className="mt-2 flex flex-wrap gap-2">
          {items.map((search) => (
            <li key={search.id} className="inline-flex items-center rounded-full bg-slate-100 text-sm">
              <button
                type="button"
                onClick={() => onRun(search.query)}
                title={search.query}
                className="rounded-l-full py-1 pr-1 pl-3 font-medium text-slate-800 hover:text-brand-700"
              >
                {search.name}
              </button>
              <button
                type="button"
                onClick={() => remove.mutate({ id: search.id })}
                aria-label={m.browse_saved_delete({ name: search.name })}
                className="grid size-7 place-items-center rounded-r-full text-slate-500 hover:text-red-700"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {query.trim() !== '' && (
        <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-2">
          <label htmlFor={`${id}-name`} className="grid gap-1 text-sm text-slate-700">
            {m.browse_save_name()}
            <input
              id={`${id}-name`}
              value={name}
              maxLength={SAVED_SEARCH_NAME_MAX_LENGTH}
              onChange={(event) => setName(event.target.value)}
              className="rounded-lg border-0 bg-white px-3 py-1.5 text-sm shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600"
            />
          </label>
          <Button type="submit" variant="secondary" pending={save.isPending} disabled={name.trim() === ''}>
            {m.browse_save()}
          </Button>
        </form>
      )}
    </section>
  );
}
