// "/auth/$pathname": better-auth-ui's view for the path (sign-in, sign-up, magic link, email code, password
// reset, …), framed by the app's logo and the site footer (language, theme, cookie settings). Loaded with the route, not with the app.
import { AuthView } from '@daveyplate/better-auth-ui';
import { getRouteApi } from '@tanstack/react-router';
import { Logo } from '../../components/logo';
import { SiteFooter } from '../../components/site-footer';
import { EngramAuthUIProvider } from '../../lib/auth-ui/provider';
import { safeRedirectTarget } from '../../lib/redirects';

const authRoute = getRouteApi('/auth/$pathname');

export function AuthScreen() {
  const { pathname } = authRoute.useParams();
  const { redirectTo } = authRoute.useSearch();
  // Where a successful sign-in goes: the redirectTo value if it is a page of this site, else the dashboard.
  // Signing out always ends on sign-in, so that view is given none.
  const target = pathname === 'sign-out' ? undefined : safeRedirectTarget(redirectTo);
  return (
    <EngramAuthUIProvider>
      <div className="flex min-h-dvh flex-col bg-gradient-to-b from-brand-50 to-slate-50">
        <main id="main" tabIndex={-1} className="flex flex-1 flex-col items-center justify-center px-4 py-12">
          <Logo className="mb-8" />
          <AuthView pathname={pathname} redirectTo={target} />
        </main>
        <SiteFooter />
      </div>
    </EngramAuthUIProvider>
  );
}
