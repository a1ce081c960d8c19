// The root route: renders the matched page, the toast stack, and the app-wide not-found and error screens.
import { createRootRoute, Outlet } from '@tanstack/react-router';
import { Toaster } from 'sonner';
import { ErrorScreen, NotFoundScreen } from '../components/status-screens';

function RootLayout() {
  return (
    <>
      <Outlet />
      {/* Spec §9: bottom-right, three visible, 4 s; sonner's defaults give the 356 px width, 14 px gap and Alt+T. */}
      <Toaster position="bottom-right" visibleToasts={3} duration={4000} richColors closeButton />
    </>
  );
}

export const rootRoute = createRootRoute({
  component: RootLayout,
  notFoundComponent: NotFoundScreen,
  errorComponent: ({ error }) => <ErrorScreen error={error} />,
});
