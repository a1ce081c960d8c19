// One proposed card: keep it or not, its type, front, back and tags editable, how it will be practised, and the quote of the notes
// it comes from, so the learner can check it.
import { type CardType, SIDED_CARD_TYPES } from '@engram/contracts/learning';
import { cardTypeLabel } from '../../components/card/card-type-label';
import { CompactCard } from '../../components/card/card-view';
import { TextField } from '../../components/text-field';
import { m } from '../../lib/i18n';
import type { Draft } from './drafts';

type ProposalCardProps = { draft: Draft; number: number; onChange: (change: Partial<Draft>) => void };

export function ProposalCard({ draft, number, onChange }: ProposalCardProps) {
  return (
    <li
      data-testid="proposal"
      className={`rounded-xl bg-white p-4 shadow-sm ring-1 ${draft.selected ? 'ring-brand-300' : 'opacity-70 ring-slate-200'}`}
    >
      <div className="mb-3 flex items-center justify-between gap-3">
        <label className="inline-flex items-center gap-2 text-sm font-medium text-slate-700">
          <input
            type="checkbox"
            checked={draft.selected}
            onChange={(event) => onChange({ selected: event.target.checked })}
            className="size-4 rounded border-slate-300 text-brand-600"
          />
          {m.generate_keep({ number })}
        </label>
        <select
          aria-label={m.cards_type()}
          value={draft.type}
          onChange={(event) => onChange({ type: event.target.value as CardType })}
          className="rounded-md border-0 bg-slate-50 py-1 pr-8 pl-2 text-sm text-slate-800 ring-1 ring-slate-300 ring-inset"
        >
          {SIDED_CARD_TYPES.map((type) => (
            <option key={type} value={type}>
              {cardTypeLabel(type)}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label={m.generate_front()}
          name="front"
          multiline
          rows={2}
          value={draft.front}
          onChange={(front) => onChange({ front })}
        />
        <TextField
          label={m.generate_back()}
          name="back"
          multiline
          rows={2}
          value={draft.back}
          onChange={(back) => onChange({ back })}
        />
      </div>
      <section
        aria-label={m.generate_rendered()}
        className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-sm ring-1 ring-slate-200"
      >
        <p className="mb-1 text-xs font-medium tracking-wide text-slate-500 uppercase">{m.generate_rendered()}</p>
        <CompactCard type={draft.type} front={draft.front} back={draft.back} />
      </section>
      <div className="mt-3">
        <TextField label={m.generate_tags()} name="tags" value={draft.tags} onChange={(tags) => onChange({ tags })} />
      </div>
      {draft.sourceQuote && (
        <blockquote className="mt-3 border-l-2 border-slate-300 pl-3 text-xs text-slate-500">
          <span className="font-medium text-slate-600">{m.generate_source()}:</span> {draft.sourceQuote}
        </blockquote>
      )}
    </li>
  );
}
