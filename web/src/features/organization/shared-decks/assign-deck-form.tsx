// "Assign a deck": a deck for a team or the whole organization (a team's deck only to its team), due at
// the end of a chosen day, with a target of cards learned (up to the deck's cards) or a retention. Checked
// with the contract's checkAssignment (CreateAssignment's own check) before orgs.createAssignment.
import { ASSIGNMENT_TARGET_KINDS, type AssignmentTargetKind } from '@engram/contracts/shared-decks';
import { Button } from '../../../components/button';
import { SelectField } from '../../../components/select-field';
import { TeamSelectField } from '../../../components/team-select-field';
import { NumberField, TextField } from '../../../components/text-field';
import { type DeckJson, refreshSharedDecks } from '../../../entities/shared-decks/shared-decks';
import { parseNumber, useContractForm } from '../../../lib/form';
import { m } from '../../../lib/i18n';
import { trpc } from '../../../lib/trpc';
import type { SharedDecksContext } from './context';
import { assignmentProblems, RETENTION_PERCENT } from './problems';

interface Draft {
  deckId: string;
  teamId: string;
  dueDate: string;
  targetKind: AssignmentTargetKind;
  targetValue: string;
}

const EMPTY: Draft = { deckId: '', teamId: '', dueDate: '', targetKind: 'cards_learned', targetValue: '' };
const KIND_LABELS: Record<AssignmentTargetKind, () => string> = {
  cards_learned: m.shared_decks_target_kind_cards,
  retention: m.shared_decks_target_kind_retention,
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

export function AssignDeckForm({ context, decks }: { context: SharedDecksContext; decks: DeckJson[] }) {
  const deckOf = (draft: Draft) => decks.find((candidate) => candidate.id === draft.deckId);
  const inputOf = (draft: Draft) => toInput(context.organizationId, draft, deckOf(draft));
  const form = useContractForm({
    initial: EMPTY,
    check: (draft: Draft) => assignmentProblems(inputOf(draft), deckOf(draft)?.cardCount),
    input: inputOf,
    mutation: trpc.orgs.createAssignment.mutationOptions(),
    reset: () => EMPTY,
    saved: (assignment) => m.shared_decks_assigned({ name: assignment.deckName }),
    invalidate: refreshSharedDecks,
  });
  const { draft, errors, set } = form;
  const deck = deckOf(draft);

  const retention = draft.targetKind === 'retention';
  return (
    <form
      aria-labelledby="assign-deck-heading"
      onSubmit={form.submit}
      noValidate
      className="mt-6 space-y-4 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <h3 id="assign-deck-heading" className="font-semibold text-slate-900">
        {m.shared_decks_assign_heading()}
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={m.shared_decks_assign_deck()}
          name="deckId"
          value={draft.deckId}
          onChange={set('deckId')}
          error={errors.deckId}
        >
          <option value="">{m.shared_decks_assign_deck_choose()}</option>
          {decks.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </SelectField>
        {/* A team's deck is assigned to that team only. */}
        <TeamSelectField
          label={m.shared_decks_assigned_to()}
          value={deck?.teamId ?? draft.teamId}
          onChange={set('teamId')}
          teams={context.teams}
          disabled={Boolean(deck?.teamId)}
        />
        <TextField
          label={m.shared_decks_due_date()}
          name="dueDate"
          type="date"
          value={draft.dueDate}
          onChange={set('dueDate')}
          error={errors.dueAt}
        />
        <SelectField
          label={m.shared_decks_target_kind()}
          name="targetKind"
          value={draft.targetKind}
          // Its options are the contract's ASSIGNMENT_TARGET_KINDS, so the value is one of them.
          onChange={(kind) => set('targetKind')(kind as AssignmentTargetKind)}
        >
          {ASSIGNMENT_TARGET_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABELS[kind]()}
            </option>
          ))}
        </SelectField>
        <NumberField
          label={retention ? m.shared_decks_target_value_retention() : m.shared_decks_target_value_cards()}
          name="targetValue"
          bounds={retention ? RETENTION_PERCENT : { min: 1, max: deck?.cardCount }}
          value={draft.targetValue}
          onChange={set('targetValue')}
          error={errors.targetValue}
          hint={
            retention
              ? m.shared_decks_target_retention_hint(RETENTION_PERCENT)
              : deck && m.shared_decks_target_cards_hint({ max: deck.cardCount })
          }
        />
      </div>
      <Button type="submit" pending={form.pending}>
        {m.shared_decks_assign_submit()}
      </Button>
    </form>
  );
}
