// "Assign a deck": a deck for a team or the whole organization (a team's deck only to its team), due at
// the end of a chosen day, with a target of cards learned (up to the deck's cards) or a retention. Checked
// with the contract's checkAssignment (CreateAssignment's own check) before orgs.createAssignment.
import { ASSIGNMENT_TARGET_KINDS, type AssignmentTargetKind, checkAssignment } from '@engram/contracts/shared-decks';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button';
import { SelectField } from '../../../components/select-field';
import { TextField } from '../../../components/text-field';
import { type DeckJson, refreshLearning } from '../../../entities/shared-decks/shared-decks';
import { toastError } from '../../../lib/errors';
import { type FieldErrors, hasErrors, parseNumber } from '../../../lib/form';
import { m } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import type { LearningContext } from './context';
import { problemTexts, RETENTION_PERCENT } from './problems';

interface Draft {
  deckId: string;
  teamId: string;
  dueDate: string;
  targetKind: AssignmentTargetKind;
  targetValue: string;
}

const EMPTY: Draft = { deckId: '', teamId: '', dueDate: '', targetKind: 'cards_learned', targetValue: '' };
const KIND_LABELS: Record<AssignmentTargetKind, () => string> = {
  cards_learned: m.learning_target_kind_cards,
  retention: m.learning_target_kind_retention,
};

/** The end of the chosen day where the person is: the assignment is due once that day is over. */
const endOfDay = (date: string) => (date ? new Date(`${date}T23:59:59`) : new Date(Number.NaN));

function toInput(organizationId: string, draft: Draft, deck: DeckJson | undefined) {
  const value = parseNumber(draft.targetValue);
  const due = endOfDay(draft.dueDate);
  const teamId = deck?.teamId ?? draft.teamId;
  return {
    organizationId,
    deckId: draft.deckId,
    ...(teamId && { teamId }),
    dueAt: Number.isNaN(due.getTime()) ? '' : due.toISOString(),
    targetKind: draft.targetKind,
    targetValue: draft.targetKind === 'retention' ? value / 100 : value,
  };
}

/** A deck to choose, then what CreateAssignment would refuse of the rest, for the chosen deck's size. */
function validate(input: ReturnType<typeof toInput>, deck: DeckJson | undefined) {
  const { problems } = checkAssignment(input, { cardCount: deck?.cardCount ?? 1, now: Date.now() });
  const errors: FieldErrors<'deckId' | 'dueAt' | 'targetKind' | 'targetValue'> = problemTexts(problems);
  if (!input.deckId) errors.deckId = m.learning_assign_deck_required();
  return errors;
}

export function AssignDeckForm({ context, decks }: { context: LearningContext; decks: DeckJson[] }) {
  const [draft, setDraft] = useState(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const deck = decks.find((candidate) => candidate.id === draft.deckId);
  const input = toInput(context.organizationId, draft, deck);
  const errors = submitted ? validate(input, deck) : {};
  const set = (key: keyof Draft) => (value: string) => setDraft((current) => ({ ...current, [key]: value }));

  const assign = useMutation(
    trpc.orgs.createAssignment.mutationOptions({
      onSuccess: async (assignment) => {
        toast.success(m.learning_assigned({ name: assignment.deckName }));
        setDraft(EMPTY);
        setSubmitted(false);
        await refreshLearning();
      },
      onError: toastError,
    }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (hasErrors(validate(input, deck))) return;
    assign.mutate(input);
  }

  const retention = draft.targetKind === 'retention';
  return (
    <form
      aria-labelledby="assign-deck-heading"
      onSubmit={submit}
      noValidate
      className="mt-6 space-y-4 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <h3 id="assign-deck-heading" className="font-semibold text-slate-900">
        {m.learning_assign_heading()}
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={m.learning_assign_deck()}
          name="deckId"
          value={draft.deckId}
          onChange={set('deckId')}
          error={errors.deckId}
        >
          <option value="">{m.learning_assign_deck_choose()}</option>
          {decks.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </SelectField>
        {/* A team's deck is assigned to that team only. */}
        <SelectField
          label={m.learning_assigned_to()}
          name="teamId"
          value={deck?.teamId ?? draft.teamId}
          onChange={set('teamId')}
          disabled={Boolean(deck?.teamId)}
        >
          <option value="">{m.learning_whole_organization()}</option>
          {[...context.teams].map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </SelectField>
        <TextField
          label={m.learning_due_date()}
          name="dueDate"
          type="date"
          value={draft.dueDate}
          onChange={set('dueDate')}
          error={errors.dueAt}
        />
        <SelectField
          label={m.learning_target_kind()}
          name="targetKind"
          value={draft.targetKind}
          onChange={set('targetKind')}
        >
          {ASSIGNMENT_TARGET_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABELS[kind]()}
            </option>
          ))}
        </SelectField>
        <TextField
          label={retention ? m.learning_target_value_retention() : m.learning_target_value_cards()}
          name="targetValue"
          type="number"
          inputMode="numeric"
          min={retention ? RETENTION_PERCENT.min : 1}
          max={retention ? RETENTION_PERCENT.max : (deck?.cardCount ?? undefined)}
          value={draft.targetValue}
          onChange={set('targetValue')}
          error={errors.targetValue}
          hint={
            retention
              ? m.learning_target_retention_hint(RETENTION_PERCENT)
              : deck && m.learning_target_cards_hint({ max: deck.cardCount })
          }
        />
      </div>
      <Button type="submit" pending={assign.isPending}>
        {m.learning_assign_submit()}
      </Button>
    </form>
  );
}
