// "Your assignments" on the dashboard, shown only to someone with any: each with its organization and
// deck, due date, target and their own progress, Subscribe while they have not (the deck's cards then
// join their practice), and a link to the organization's shared decks view. The organizations' names and
// slugs are read with a plain call started by the route loader with the rest (queries.ts): the
// organization client stays off the dashboard.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Button } from '../../components/button';
import { LoadMore } from '../../components/load-more';
import {
  type AssignmentJson,
  dueText,
  progressText,
  targetText,
  useSubscription,
} from '../../entities/shared-decks/shared-decks';
import { m } from '../../lib/i18n';
import { Panel } from './panels';
import { assignmentsOptions, type OrganizationSummary, organizationsOptions } from './queries';

function AssignmentRow({
  assignment,
  organization,
}: {
  assignment: AssignmentJson;
  organization?: OrganizationSummary;
}) {
  const { subscribe } = useSubscription();
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-900">
          {organization
            ? m.assignments_deck_in({ deck: assignment.deckName, organization: organization.name })
            : assignment.deckName}
        </p>
        <p className="text-sm text-slate-600">
          {dueText(assignment.dueAt)} · {m.shared_decks_target({ target: targetText(assignment) })}
        </p>
        <p className="text-sm text-slate-600">
          {m.shared_decks_your_progress({ progress: progressText(assignment.mine) })}
        </p>
      </div>
      <div className="flex items-center gap-3">
        {!assignment.subscribed && (
          <Button pending={subscribe.isPending} onClick={() => subscribe.mutate({ deckId: assignment.deckId })}>
            {m.shared_decks_subscribe()}
          </Button>
        )}
        {organization && (
          <Link
            to="/organization/$slug/learning"
            params={{ slug: organization.slug }}
            className="text-sm font-medium text-brand-700 hover:text-brand-800"
          >
            {m.assignments_open({ organization: organization.name })}
          </Link>
        )}
      </div>
    </li>
  );
}

export function AssignmentsPanel() {
  const assignments = useInfiniteQuery(assignmentsOptions);
  const items = assignments.data?.pages.flatMap((page) => page.items) ?? [];
  const any = items.length > 0;
  const names = useQuery(organizationsOptions);
  if (!any) return null;
  const byId = new Map((names.data ?? []).map((organization) => [organization.id, organization]));
  return (
    <Panel title={m.assignments_heading()} className="mb-6">
      <ul className="mt-2 divide-y divide-slate-100">
        {items.map((assignment) => (
          <AssignmentRow
            key={assignment.id}
            assignment={assignment}
            organization={byId.get(assignment.organizationId)}
          />
        ))}
      </ul>
      <LoadMore list={assignments} />
    </Panel>
  );
}
