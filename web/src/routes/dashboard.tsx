// "/dashboard": the signed-in home, with the new-card form beside the user's cards.
import { createRoute } from '@tanstack/react-router';
import { CardList } from '../components/card-list';
import { NewCardForm } from '../components/new-card-form';
import { cardsListOptions } from '../lib/cards';
import { m } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { protectedRoute } from './protected';

function Dashboard() {
  const { session } = dashboardRoute.useRouteContext();
  const firstName = session.user.name.trim().split(/\s+/)[0] || session.user.name;
  return (
    <main className="mx-auto max-w-5xl px-6 py-10">
      <div className="mb-8">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.dashboard_title()}</h1>
        <p className="mt-1 text-sm text-slate-600">{m.dashboard_welcome({ name: firstName })}</p>
      </div>
      <div className="grid items-start gap-8 lg:grid-cols-[22rem_1fr]">
        <div className="lg:sticky lg:top-24">
          <NewCardForm />
        </div>
        <CardList />
      </div>
    </main>
  );
}

export const dashboardRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/dashboard',
  // Starts the first page early without waiting for it: retries of a failing fetch must not hold up the page,
  // and the list shows its own loading and error states.
  loader: () => {
    void queryClient.prefetchInfiniteQuery(cardsListOptions);
  },
  component: Dashboard,
});
