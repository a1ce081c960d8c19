// Tags for a card: pick existing ones as you type, or press Enter to take the tag of that name (made when the
// learner has none). The user's tags load the first time the field is focused, so the dashboard's first request
// stays one batch.
import { MAX_TAGS_PER_CARD, TAG_NAME_MAX_LENGTH } from '@engram/contracts/learning';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { type KeyboardEvent, useId, useState } from 'react';
import { type Tag, tagsOptions } from '../../entities/cards/queries';
import { tagNamed } from '../../entities/cards/tag-named';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';

const MAX_SUGGESTIONS = 8;

type TagPickerProps = { label: string; value: Tag[]; onChange: (tags: Tag[]) => void };

export function TagPicker({ label, value, onChange }: TagPickerProps) {
  const id = useId();
  const [text, setText] = useState('');
  const [opened, setOpened] = useState(false);
  const tags = useInfiniteQuery({ ...tagsOptions, enabled: opened });
  const all = tags.data?.pages.flatMap((page) => page.items) ?? [];
  const needle = text.trim().toLowerCase();
  const chosen = new Set(value.map((tag) => tag.id));
  const suggestions = all
    .filter((tag) => !chosen.has(tag.id) && (needle === '' || tag.name.toLowerCase().includes(needle)))
    .slice(0, MAX_SUGGESTIONS);
  const exact = all.find((tag) => tag.name.toLowerCase() === needle);
  const full = value.length >= MAX_TAGS_PER_CARD;

  // The tag typed: the learner's own of that name (also one past the pages loaded here), else a new one.
  const createTag = useMutation({
    mutationFn: ({ name }: { name: string }) => tagNamed(name),
    onSuccess: async (tag) => {
      add(tag);
      await queryClient.invalidateQueries({ queryKey: trpc.cards.listTags.pathKey() });
    },
    onError: toastError,
  });

  function add(tag: Tag) {
    if (!chosen.has(tag.id) && !full) onChange([...value, tag]);
    setText('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Backspace' && text === '' && value.length > 0) onChange(value.slice(0, -1));
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (needle === '' || full || createTag.isPending) return;
    if (exact) add(exact);
    else createTag.mutate({ name: text.trim() });
  }

  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-1.5 rounded-lg bg-white px-2 py-1.5 shadow-sm ring-1 ring-slate-300 ring-inset focus-within:ring-2 focus-within:ring-brand-600">
        {value.map((tag) => (
          <span
            key={tag.id}
            className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-700"
          >
            {tag.name}
            <button
              type="button"
              onClick={() => onChange(value.filter((t) => t.id !== tag.id))}
              aria-label={m.tags_remove({ name: tag.name })}
              className="grid size-4 place-items-center rounded-full hover:bg-brand-100"
            >
              ×
            </button>
          </span>
        ))}
        <input
          id={id}
          value={text}
          maxLength={TAG_NAME_MAX_LENGTH}
          disabled={full}
          placeholder={value.length === 0 ? m.tags_placeholder() : ''}
          onFocus={() => setOpened(true)}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby={`${id}-hint`}
          className="min-w-24 flex-1 border-0 bg-transparent px-1 py-1 text-sm focus:ring-0 focus:outline-none"
        />
      </div>
      {opened && suggestions.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label={m.tags_suggestions()}>
          {suggestions.map((tag) => (
            <li key={tag.id}>
              <button
                type="button"
                onClick={() => add(tag)}
                className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-200"
              >
                + {tag.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        {needle !== '' && !exact ? m.tags_create_hint({ name: text.trim() }) : m.tags_hint({ max: MAX_TAGS_PER_CARD })}
      </p>
    </div>
  );
}
