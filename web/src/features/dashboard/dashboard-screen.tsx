// The signed-in home: progress and streak first, the charts as soon as their code arrives, then the
// new-card form beside the user's cards.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { lazy, Suspense, useEffect } from 'react';
import { PlanSummary } from '../../entities/billing/plan-summary';
import { SyncStatus, useDeviceStatus } from '../../entities/offline/sync-status';
import { m } from '../../lib/i18n';
import { useOnline } from '../../lib/online';
import { startOfflineAfterRender } from '../../lib/service-worker-loader';
import { CardList, NewCardForm } from '../cards';
import { AssignmentsPanel } from './assignments-panel';
import { ChartsLoading } from './charts-loading';
import { GeneratePanel } from './generate-panel';
import { greeting } from './greeting';
import { InvitationsPanel } from './invitations-panel';
import { ProgressPanel, StreakPanel } from './panels';
import { timezoneOptions } from './queries';

const DashboardCharts = lazy(() => import('./charts').then((module) => ({ default: module.DashboardCharts })));

const dashboardRoute = getRouteApi('/protected/dashboard');

function TimezoneNote() {
  const timezone = useQuery(timezoneOptions);
  if (!timezone.data) return null;
  return (
    <p className="text-xs text-slate-500">
      {m.dashboard_timezone({ timezone: timezone.data.timezone })}{' '}
      <Link to="/settings" className="font-medium text-brand-700 hover:text-brand-800">
        {m.dashboard_change()}
      </Link>
    </p>
  );
}

export function DashboardScreen() {
  const { session } = dashboardRoute.useRouteContext();
  const { q, invitation } = dashboardRoute.useSearch();
  const navigate = dashboardRoute.useNavigate();
  const device = useDeviceStatus(session.user.id);
  const online = useOnline();
  // The signed-in home is where the app readies itself to work offline (the installed app starts here).
  useEffect(() => startOfflineAfterRender(session), [session]);
  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-6 py-10">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.dashboard_title()}</h1>
          <p className="mt-1 text-sm text-slate-600">{greeting(session.user, session.session)}</p>
        </div>
        <TimezoneNote />
      </div>
      {/* Opening the dashboard also keeps this device ready to practise offline (offline/device.ts). */}
      <div className="mb-6 empty:hidden">
        <SyncStatus status={device} />
      </div>
      <InvitationsPanel firstId={invitation} />
      <AssignmentsPanel />
      <PlanSummary className="mb-6 rounded-2xl bg-white px-6 py-4 shadow-sm ring-1 ring-slate-200" />
      <div className="grid gap-6 lg:grid-cols-3">
        <ProgressPanel onDevice={device.progress} />
        <StreakPanel onDevice={device.streak} />
      </div>
      <div className="mt-6">
        <Suspense fallback={<ChartsLoading />}>
          <DashboardCharts />
        </Suspense>
      </div>
      <div className="mt-6">
        <GeneratePanel />
      </div>
      {online ? (
        <div className="mt-10 grid items-start gap-8 lg:grid-cols-[24rem_1fr]">
          <div className="lg:sticky lg:top-24">
            <NewCardForm />
          </div>
          <CardList
            initialSearch={q ?? ''}
            onSearch={(text) =>
              void navigate({ search: (search) => ({ ...search, q: text === '' ? undefined : text }), replace: true })
            }
          />
        </div>
      ) : (
        // Cards are written, edited and searched on the server: offline their forms would only wait.
        <p
          role="status"
          className="mt-10 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          {m.offline_cards_need_network()}
        </p>
      )}
    </main>
  );
}
