// The organization's assignments, soonest due first, a page at a time with "Load more": deck, team, due
// date, target and the caller's own progress, with Subscribe when they have not yet; those who may assign
// decks assign one and remove one (after a confirmation).
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useConfirmedRemoval } from '../../../components/confirmed-removal';
import { PagedList } from '../../../components/paged-list';
import {
  type AssignmentJson,
  dueText,
  progressText,
  refreshSharedDecks,
  targetText,
  useSubscription,
} from '../../../entities/shared-decks/shared-decks';
import { m } from '../../../lib/i18n';
import { trpc } from '../../../lib/trpc';
import { AssignDeckForm } from './assign-deck-form';
import type { SharedDecksContext } from './context';
import { teamLabel } from './decks-section';
import { organizationAssignmentsOptions, useAllDecks } from './queries';

function AssignmentItem(props: { assignment: AssignmentJson; context: SharedDecksContext; onRemove: () => void }) {
  const { assignment, context, onRemove } = props;
  const { subscribe } = useSubscription();
  const headingId = `assignment-${assignment.id}`;
  return (
    <li>
      <article aria-labelledby={headingId} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h3 id={headingId} className="font-semibold text-slate-900">
              {assignment.deckName}
            </h3>
            <p className="mt-1 text-sm text-slate-600">
              {teamLabel(context, assignment.teamId)} · {dueText(assignment.dueAt)} ·{' '}
              {m.shared_decks_target({ target: targetText(assignment) })}
            </p>
            <p className="mt-2 text-sm text-slate-900" data-testid="assignment-progress">
              {m.shared_decks_your_progress({ progress: progressText(assignment.mine) })}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            {!assignment.subscribed && (
              <Button pending={subscribe.isPending} onClick={() => subscribe.mutate({ deckId: assignment.deckId })}>
                {m.shared_decks_subscribe()}
              </Button>
            )}
            {context.managesAssignments && (
              <Button variant="ghost" onClick={onRemove}>
                {m.shared_decks_assignment_remove()}
              </Button>
            )}
          </div>
        </div>
      </article>
    </li>
  );
}

export function AssignmentsSection({ context }: { context: SharedDecksContext }) {
  const assignments = useInfiniteQuery(organizationAssignmentsOptions(context.organizationId));
  const decks = useAllDecks(context.organizationId);
  const removal = useConfirmedRemoval(trpc.orgs.deleteAssignment.mutationOptions(), {
    input: (assignment: AssignmentJson) => ({ assignmentId: assignment.id }),
    success: m.shared_decks_assignment_removed,
    refresh: refreshSharedDecks,
  });

  return (
    <section aria-labelledby="assignments-heading">
      <h2 id="assignments-heading" className="mb-4 text-lg font-semibold text-slate-900">
        {m.shared_decks_assignments_heading()}
      </h2>
      <PagedList
        list={assignments}
        loadingLabel={m.shared_decks_loading()}
        failedMessage={m.shared_decks_assignments_failed()}
        empty={m.shared_decks_assignments_empty()}
      >
        {(items) => (
          <ul aria-labelledby="assignments-heading" className="space-y-3">
            {items.map((assignment) => (
              <AssignmentItem
                key={assignment.id}
                assignment={assignment}
                context={context}
                onRemove={() => removal.ask(assignment)}
              />
            ))}
          </ul>
        )}
      </PagedList>
      {context.managesAssignments && decks.length > 0 && <AssignDeckForm context={context} decks={decks} />}
      <ConfirmDialog
        {...removal.dialog}
        title={m.shared_decks_remove_title({ name: removal.waiting?.deckName ?? '' })}
        text={m.shared_decks_remove_text()}
        confirmLabel={m.shared_decks_assignment_remove()}
      />
    </section>
  );
}
