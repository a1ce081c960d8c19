// "/auth/$pathname": better-auth-ui's view for the path (sign-in, sign-up, magic link, email code, password
// reset, …), framed by the app's logo and the site footer (language, theme, cookie settings). Loaded with the route, not with the app.
// After a sign-up that needs the address verified, the sign-in view first says where the link went (check-inbox.tsx).
// Where identity can text codes, sign-in, magic-link and email-otp offer signing in with a phone number, Engram's
// own view (phone-sign-in.tsx); where it cannot, that view is replaced by sign-in.
import { AuthView } from '@daveyplate/better-auth-ui';
import { getRouteApi, Link } from '@tanstack/react-router';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Logo } from '../../components/logo';
import { SiteFooter } from '../../components/site-footer';
import { EngramAuthUIProvider } from '../../lib/auth-ui/provider';
import { usePublicAuthConfig } from '../../lib/auth-ui/public-config';
import { type AuthView as AuthViewName, OFFERS_PHONE_SIGN_IN, PHONE_SIGN_IN_VIEW } from '../../lib/auth-views';
import { m } from '../../lib/i18n';
import { DEFAULT_REDIRECT, safeRedirectTarget } from '../../lib/redirects';
import { forgetPendingVerification, pendingVerification, rememberPendingVerification } from './pending-verification';

const authRoute = getRouteApi('/auth/$pathname');

// Only on sign-out: reviews of this device not yet synced are told of first.
const UnsyncedBeforeSignOut = lazy(() =>
  import('./unsynced-before-sign-out').then((module) => ({ default: module.UnsyncedBeforeSignOut })),
);

// Only on its own view, where phone numbers are on.
const PhoneSignIn = lazy(() => import('./phone-sign-in').then((module) => ({ default: module.PhoneSignIn })));

// Only after a sign-up: a first visit to sign-in does not load it.
const CheckInbox = lazy(() => import('./check-inbox').then((module) => ({ default: module.CheckInbox })));

export function AuthScreen() {
  const { pathname } = authRoute.useParams();
  const search = authRoute.useSearch();
  const navigate = authRoute.useNavigate();
  // Where a successful sign-in goes: the redirectTo value if it is a page of this site, else the dashboard.
  // Signing out always ends on sign-in, so that view is given none.
  const target = pathname === 'sign-out' ? undefined : safeRedirectTarget(search.redirectTo);

  const [verificationSentTo, setVerificationSentTo] = useState(pendingVerification);
  const onVerificationEmailSent = useCallback((email: string) => {
    rememberPendingVerification(email);
    setVerificationSentTo(email);
  }, []);
  const forgetVerification = useCallback(() => {
    forgetPendingVerification();
    setVerificationSentTo(undefined);
  }, []);
  useEffect(() => {
    if (pathname === 'sign-out') forgetVerification();
  }, [pathname, forgetVerification]);
  const [signOutChecked, setSignOutChecked] = useState(false);
  const signOut = useCallback(() => setSignOutChecked(true), []);
  const phoneNumbers = usePublicAuthConfig()?.phoneNumber;
  useEffect(() => {
    if (pathname === PHONE_SIGN_IN_VIEW && phoneNumbers === false) {
      void navigate({ params: { pathname: 'sign-in' }, search, replace: true });
    }
  }, [pathname, phoneNumbers, navigate, search]);

  return (
    <EngramAuthUIProvider onVerificationEmailSent={onVerificationEmailSent}>
      <div className="flex min-h-dvh flex-col bg-gradient-to-b from-brand-50 to-slate-50">
        <main id="main" tabIndex={-1} className="flex flex-1 flex-col items-center justify-center px-4 py-12">
          <Logo className="mb-8" />
          {pathname === 'sign-in' && verificationSentTo && target && (
            <Suspense fallback={null}>
              <CheckInbox
                email={verificationSentTo}
                callbackURL={target}
                onOtherAddress={() => {
                  forgetVerification();
                  void navigate({ params: { pathname: 'sign-up' }, search });
                }}
              />
            </Suspense>
          )}
          {pathname === PHONE_SIGN_IN_VIEW ? (
            phoneNumbers && (
              <Suspense fallback={null}>
                <PhoneSignIn target={target ?? DEFAULT_REDIRECT} search={search} />
              </Suspense>
            )
          ) : pathname === 'sign-out' && !signOutChecked ? (
            <Suspense fallback={null}>
              <UnsyncedBeforeSignOut onSignOut={signOut} />
            </Suspense>
          ) : (
            <AuthView
              pathname={pathname}
              redirectTo={target}
              // Sign-in's one field takes a username or an email, and is labelled so; sign-up asks for the username.
              localization={pathname === 'sign-in' ? { USERNAME: m.authui_sign_in_username_placeholder() } : undefined}
            />
          )}
          {phoneNumbers && OFFERS_PHONE_SIGN_IN.includes(pathname as AuthViewName) && (
            <Link
              to="/auth/$pathname"
              params={{ pathname: PHONE_SIGN_IN_VIEW }}
              search={search}
              className="mt-4 text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
            >
              {m.phone_sign_in_link()}
            </Link>
          )}
        </main>
        <SiteFooter />
      </div>
    </EngramAuthUIProvider>
  );
}
