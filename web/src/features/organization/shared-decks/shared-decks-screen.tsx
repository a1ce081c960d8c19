// "/organization/$slug/learning": the organization's shared decks. Everyone sees the decks shared
// with them (subscribe, unsubscribe), the assignments and their progress; owners and admins (whoever
// identity says may) also share decks, publish their changes, withdraw them, assign them, and see every
// member's progress.
import { getRouteApi } from '@tanstack/react-router';
import { NeedsNetwork } from '../../../components/needs-network';
import { m } from '../../../lib/i18n';
import { OrganizationNav } from '../organization-nav';
import { AssignmentsSection } from './assignments-section';
import { memberNames, type SharedDecksContext, teamNames } from './context';
import { DecksSection } from './decks-section';
import { ProgressSection } from './progress-section';
import { useFullOrganization, usePermission } from './queries';

const learningRoute = getRouteApi('/protected/organization/$slug/learning');

export function SharedDecksScreen() {
  const { organization, session } = learningRoute.useRouteContext();
  const full = useFullOrganization(organization.id);
  const context: SharedDecksContext = {
    organizationId: organization.id,
    userId: session.user.id,
    teams: teamNames(full.data),
    members: memberNames(full.data),
    managesDecks: usePermission(organization.id, 'deck', 'create'),
    managesAssignments: usePermission(organization.id, 'assignment', 'create'),
  };
  return (
    <main id="main" tabIndex={-1} className="mx-auto w-full max-w-5xl px-6 py-10">
      <NeedsNetwork />
      <h1 className="mb-4 text-2xl font-semibold tracking-tight text-slate-900">
        {m.shared_decks_title({ organization: organization.name })}
      </h1>
      <OrganizationNav slug={organization.slug} current="learning" />
      <div className="space-y-10">
        <DecksSection context={context} />
        <AssignmentsSection context={context} />
        <ProgressSection context={context} />
      </div>
    </main>
  );
}
