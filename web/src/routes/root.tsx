// The root route: renders the matched page, the toast stack, and the app-wide not-found and error screens.
import { createRootRoute, Outlet } from '@tanstack/react-router';
import { Fragment } from 'react';
import { ErrorScreen, NotFoundScreen } from '../components/status-screens';
import { useLocale } from '../lib/i18n';
import { AppToaster } from '../lib/toaster';

function RootLayout() {
  // Route components are memoised by the router; keying the page on the language re-renders every string
  // of it after a switch (local form state starts afresh; router state and cached data stay).
  const locale = useLocale();
  return (
    <>
      <Fragment key={locale}>
        <Outlet />
      </Fragment>
      <AppToaster />
    </>
  );
}

export const rootRoute = createRootRoute({
  component: RootLayout,
  notFoundComponent: NotFoundScreen,
  errorComponent: ({ error }) => <ErrorScreen error={error} />,
});
