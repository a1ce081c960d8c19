// The root route: the skip link, the matched page (re-rendered on a language switch), and the toast stack.
import { createRootRoute, Outlet } from '@tanstack/react-router';
import { Fragment } from 'react';
import { SkipLink } from '../components/skip-link';
import { useLocale } from '../lib/i18n';
import { AppToaster } from '../lib/toast-slot';

function RootLayout() {
  // Route components are memoised by the router; keying the page on the language re-renders every string
  // of it after a switch (local form state starts afresh; router state and cached data stay).
  const locale = useLocale();
  return (
    <>
      <Fragment key={locale}>
        <SkipLink />
        <Outlet />
      </Fragment>
      <AppToaster />
    </>
  );
}

// The not-found and error screens are the router's defaults (router.tsx), so they render inside this layout.
export const rootRoute = createRootRoute({ component: RootLayout });
