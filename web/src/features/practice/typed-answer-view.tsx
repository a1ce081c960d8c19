// A typed-answer card in practice: a field under the question (Enter shows the answer), then, with the answer, what
// was typed compared with it (typed-answer.ts): the typed line with what was wrong marked and a dash for what is
// missing, an arrow, and the answer with what was missed marked. A screen reader hears the two texts and whether
// they matched instead of the marks.
import { useEffect, useRef } from 'react';
import { m } from '../../lib/i18n';
import type { TypedComparison, TypedToken } from './typed-answer';

const TOKEN_STYLES: Record<TypedToken['kind'], string> = {
  good: 'bg-emerald-100 text-emerald-900',
  bad: 'bg-red-100 text-red-900 line-through decoration-red-700/60',
  missing: 'bg-slate-200 text-slate-700 underline decoration-dotted',
};

export function TypedAnswerField({
  value,
  onChange,
  onSubmit,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
}) {
  const field = useRef<HTMLInputElement>(null);
  // Each typed card asks at once: the field takes the keyboard (a phone's opens) as the card shows.
  useEffect(() => field.current?.focus(), []);
  return (
    // The card's own tap shows the answer; a tap into the field is for typing.
    // biome-ignore lint/a11y/noStaticElementInteractions: only stops the card's tap from reaching the card
    // biome-ignore lint/a11y/useKeyWithClickEvents: no keyboard equivalent needed for not revealing
    <div className="px-8 pb-8" onClick={(event) => event.stopPropagation()}>
      <label className="block text-sm font-medium text-slate-700">
        {m.practice_typed_label()}
        <input
          ref={field}
          type="text"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
              event.preventDefault();
              onSubmit();
            }
          }}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          enterKeyHint="done"
          placeholder={m.practice_typed_placeholder()}
          className="mt-1 block w-full rounded-lg border-0 bg-white px-3 py-2 font-mono text-base text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600"
        />
      </label>
    </div>
  );
}

function Tokens({ tokens }: { tokens: TypedToken[] }) {
  return tokens.map((token, index) => (
    // The tokens of one comparison never change order: their place is their identity.
    // biome-ignore lint/suspicious/noArrayIndexKey: see above
    <span key={index} data-kind={token.kind} className={`rounded-sm ${TOKEN_STYLES[token.kind]}`}>
      {token.text}
    </span>
  ));
}

export function TypedAnswerCompared({ comparison }: { comparison: TypedComparison }) {
  const { typed, expected, exact } = comparison;
  const said = exact
    ? m.practice_typed_right({ answer: expected })
    : typed
      ? m.practice_typed_wrong({ typed, answer: expected })
      : m.practice_typed_nothing({ answer: expected });
  return (
    <section aria-label={m.practice_typed_compared()} className="px-8 pt-6" data-testid="typed-comparison">
      <p className="sr-only">{said}</p>
      <div
        aria-hidden="true"
        className="rounded-lg bg-slate-50 px-4 py-3 text-center font-mono text-lg leading-loose break-words whitespace-pre-wrap"
      >
        {exact || typed === '' ? (
          <Tokens tokens={comparison.expectedTokens} />
        ) : (
          <>
            <div data-line="typed">
              <Tokens tokens={comparison.typedTokens} />
            </div>
            <div className="text-slate-400">↓</div>
            <div data-line="expected">
              <Tokens tokens={comparison.expectedTokens} />
            </div>
          </>
        )}
      </div>
    </section>
  );
}
