// "/auth/$pathname": the sign-in, sign-up and sign-out views, and the redirects the spec sets around them (§2).
import { createRoute, Link, redirect, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { toast } from 'sonner';
import { AuthCard } from '../components/auth-card';
import { SignInForm } from '../components/sign-in-form';
import { SignOutView } from '../components/sign-out-view';
import { SignUpForm } from '../components/sign-up-form';
import { m } from '../lib/i18n';
import { DEFAULT_REDIRECT, safeRedirectTarget } from '../lib/redirects';
import { loadSession, refreshSession } from '../lib/session';
import { rootRoute } from './root';

/** Views this app renders. */
const VIEWS = ['sign-in', 'sign-up', 'sign-out'] as const;

/** Views of the auth layer whose features are off in this app: they fall back to sign-in. */
const DISABLED_VIEWS = [
  'callback',
  'email-otp',
  'forgot-password',
  'magic-link',
  'recover-account',
  'reset-password',
  'two-factor',
  'accept-invitation',
];

/** Every view except sign-out sends a signed-in user on to the dashboard. */
const SIGNED_IN_REDIRECTS = new Set<string>(['sign-in', 'sign-up', ...DISABLED_VIEWS]);

/** The whole query string is kept so it survives moves between views; redirectTo is the one value read. */
export type AuthSearch = { redirectTo?: string; [key: string]: unknown };

const isView = (pathname: string): boolean => (VIEWS as readonly string[]).includes(pathname);

function AuthPage() {
  const { pathname } = authRoute.useParams();
  const search = authRoute.useSearch();
  const navigate = useNavigate();

  const finish = useCallback(async () => {
    await refreshSession();
    await navigate({ href: safeRedirectTarget(search.redirectTo), replace: true });
  }, [navigate, search.redirectTo]);

  const toSignIn = useCallback(
    () => void navigate({ to: '/auth/$pathname', params: { pathname: 'sign-in' }, search, replace: true }),
    [navigate, search],
  );

  if (pathname === 'sign-out') return <SignOutView onSignedOut={toSignIn} />;

  if (pathname === 'sign-up') {
    return (
      <AuthCard
        title={m.auth_sign_up_title()}
        description={m.auth_sign_up_description()}
        footer={
          <>
            {m.auth_have_account()}{' '}
            <Link to="/auth/$pathname" params={{ pathname: 'sign-in' }} search={search} className={LINK}>
              {m.nav_sign_in()}
            </Link>
          </>
        }
      >
        <SignUpForm
          onSignedUp={async (outcome) => {
            if (outcome === 'signedIn') return finish();
            toast.success(m.auth_verify_email_sent());
            toSignIn();
          }}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={m.auth_sign_in_title()}
      description={m.auth_sign_in_description()}
      footer={
        <>
          {m.auth_no_account()}{' '}
          <Link to="/auth/$pathname" params={{ pathname: 'sign-up' }} search={search} className={LINK}>
            {m.auth_sign_up_link()}
          </Link>
        </>
      }
    >
      <SignInForm onSignedIn={finish} />
    </AuthCard>
  );
}

const LINK = 'font-semibold text-brand-600 hover:text-brand-700 underline-offset-4 hover:underline';

export const authRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/$pathname',
  validateSearch: (raw: Record<string, unknown>): AuthSearch => ({
    ...raw,
    redirectTo: typeof raw.redirectTo === 'string' ? raw.redirectTo : undefined,
  }),
  beforeLoad: async ({ params, search }) => {
    const { pathname } = params;
    const known = isView(pathname) || DISABLED_VIEWS.includes(pathname);
    if (!known) console.error(`Unknown auth path "/auth/${pathname}", redirecting to sign-in`);
    if (SIGNED_IN_REDIRECTS.has(pathname) && (await loadSession())) throw redirect({ to: DEFAULT_REDIRECT });
    if (!isView(pathname)) {
      throw redirect({ to: '/auth/$pathname', params: { pathname: 'sign-in' }, search, replace: true });
    }
  },
  component: AuthPage,
});
