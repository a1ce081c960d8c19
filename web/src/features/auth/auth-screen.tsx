// The sign-in, sign-up and sign-out views of "/auth/$pathname" (loaded with the route, not with the app).
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { toast } from 'sonner';
import { AuthCard } from '../../components/auth-card';
import { SignInForm } from '../../components/sign-in-form';
import { SignOutView } from '../../components/sign-out-view';
import { SignUpForm } from '../../components/sign-up-form';
import { m } from '../../lib/i18n';
import { safeRedirectTarget } from '../../lib/redirects';
import { refreshSession } from '../../lib/session';

const authRoute = getRouteApi('/auth/$pathname');

export function AuthScreen() {
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
