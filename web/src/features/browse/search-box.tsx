// The Browse screen's search, in Anki's syntax. It is read as the learner types (the contracts' parser, the one
// the cards service reads it with), so a malformed search is pointed at before anything is asked: the message
// says what is wrong, in the learner's language, and the part of the search it concerns is marked under the field.
// A search is run once it reads well and the learner stopped typing, or at once with Enter.
import { CARD_SEARCH_MAX_LENGTH, type CardSearchError, parseCardSearch } from '@engram/contracts/card-search';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { m } from '../../lib/i18n';
import { useDebounced } from '../../lib/use-debounced';
import { problemText } from './search-problems';

const SEARCH_DELAY_MS = 400;

/** What is wrong with a search, or undefined when it reads well. */
export function problemOf(query: string): CardSearchError | undefined {
  try {
    parseCardSearch(query);
    return undefined;
  } catch (error) {
    return error as CardSearchError;
  }
}

export function SearchBox({ value, onSearch }: { value: string; onSearch: (query: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  // Whether the text is the learner's typing since the search last changed (by them, or from elsewhere).
  const typed = useRef(false);
  useEffect(() => {
    setText(value);
    typed.current = false;
  }, [value]);
  const problem = problemOf(text);
  const settled = useDebounced(text, SEARCH_DELAY_MS);
  useEffect(() => {
    // Only what the learner typed and then left alone: a search set from elsewhere (a saved one) is not undone
    // by the text the field held before it.
    if (typed.current && settled === text && settled !== value && !problemOf(settled)) onSearch(settled);
  }, [settled, text, value, onSearch]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!problem) onSearch(text);
  };
  return (
    <search>
      <form onSubmit={submit} className="grid gap-1">
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {m.browse_search_label()}
        </label>
        <input
          id={id}
          type="search"
          value={text}
          maxLength={CARD_SEARCH_MAX_LENGTH}
          onChange={(event) => {
            typed.current = true;
            setText(event.target.value);
          }}
          placeholder={m.browse_search_placeholder()}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : `${id}-hint`}
          autoComplete="off"
          spellCheck={false}
          className="w-full rounded-lg border-0 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 aria-invalid:ring-red-500"
        />
        {problem ? (
          <div id={`${id}-problem`} role="alert" className="text-sm text-red-700">
            <p>{problemText(problem)}</p>
            <p className="mt-1 font-mono text-xs break-all text-slate-700" data-testid="search-problem-place">
              {text.slice(0, problem.start)}
              <mark className="rounded bg-red-100 px-0.5 text-red-900">
                {text.slice(problem.start, problem.end) || ' '}
              </mark>
              {text.slice(problem.end)}
            </p>
          </div>
        ) : (
          <details id={`${id}-hint`} className="text-xs text-slate-600">
            <summary className="cursor-pointer">{m.browse_syntax_title()}</summary>
            <ul className="mt-1 grid gap-0.5 font-mono sm:grid-cols-2">
              <li>{m.browse_syntax_words()}</li>
              <li>{m.browse_syntax_tags()}</li>
              <li>{m.browse_syntax_states()}</li>
              <li>{m.browse_syntax_dates()}</li>
              <li>{m.browse_syntax_props()}</li>
              <li>{m.browse_syntax_ids()}</li>
            </ul>
          </details>
        )}
      </form>
    </search>
  );
}
