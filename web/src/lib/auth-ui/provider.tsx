// better-auth-ui, set up for Engram: the auth features identity offers, the app's router, toasts and
// languages, and the paths and limits of spec §2, §5 and §9. The auth and account screens render inside it.

import { AuthUIProvider } from '@daveyplate/better-auth-ui';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, SESSION_FRESH_AGE_SECONDS } from '@engram/contracts/auth';
import { useRouter } from '@tanstack/react-router';
import { type ComponentProps, type ReactNode, useCallback, useMemo } from 'react';
import { toast } from 'sonner';
import { authClient } from '../auth-client';
import { ACCOUNT_BASE_PATH, AUTH_BASE_PATH } from '../auth-views';
import { useLocale } from '../i18n';
import { queryClient } from '../query-client';
import { DEFAULT_REDIRECT, sameSitePath } from '../redirects';
import { clearCacheIfUserChanged } from '../session-cache';
import { authLocalization } from './localization';
import { RouterLink } from './router-link';

type ToastRequest = { variant?: 'default' | 'success' | 'error' | 'info' | 'warning'; message?: string };

/** The library's toasts go to the app's one sonner stack; an error toast is shown once however often it is raised. */
const showToast = ({ variant = 'default', message }: ToastRequest) => {
  if (variant === 'default') toast(message);
  else toast[variant](message, variant === 'error' ? { id: `error:${message}` } : undefined);
};

const CREDENTIALS = {
  forgotPassword: true,
  // Sign-in takes a username or an email; sign-up asks for both.
  username: true,
  passwordValidation: { minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH },
};

/** A second factor by emailed code or by authenticator app; backup codes recover the account. */
const TWO_FACTOR_METHODS: ('otp' | 'totp')[] = ['otp', 'totp'];

const ACCOUNT = { basePath: ACCOUNT_BASE_PATH, fields: ['image', 'name'] };

type ProviderProps = {
  children: ReactNode;
  /** Avatars are configured by the screens that show them, so the others do not load their code. */
  avatar?: ComponentProps<typeof AuthUIProvider>['avatar'];
};

export function EngramAuthUIProvider({ children, avatar }: ProviderProps) {
  const router = useRouter();
  const locale = useLocale();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the texts are read in the language of the moment.
  const localization = useMemo(() => authLocalization(), [locale]);

  // The library navigates to its own views and to redirectTo values from the address bar: only paths of this
  // site are followed, anything else goes to the dashboard.
  const navigate = useCallback(
    (href: string) => void router.navigate({ href: sameSitePath(href) ?? DEFAULT_REDIRECT }),
    [router],
  );
  const replace = useCallback(
    (href: string) => void router.navigate({ href: sameSitePath(href) ?? DEFAULT_REDIRECT, replace: true }),
    [router],
  );

  // After a sign-in, sign-up or sign-out the library has refetched the session and navigates next. The cache is
  // cleared first if the user changed, so the next page never shows the previous user's data; outside the auth
  // views (where that navigation decides), the route guards run again for the new session.
  const onSessionChange = useCallback(async () => {
    clearCacheIfUserChanged(queryClient);
    if (!router.state.location.pathname.startsWith(`${AUTH_BASE_PATH}/`)) await router.invalidate();
  }, [router]);

  return (
    <AuthUIProvider
      authClient={authClient}
      basePath={AUTH_BASE_PATH}
      redirectTo={DEFAULT_REDIRECT}
      navigate={navigate}
      replace={replace}
      Link={RouterLink}
      onSessionChange={onSessionChange}
      toast={showToast}
      localization={localization}
      credentials={CREDENTIALS}
      signUp={{ fields: ['name'] }}
      magicLink
      emailOTP
      twoFactor={TWO_FACTOR_METHODS}
      changeEmail
      deleteUser
      account={ACCOUNT}
      avatar={avatar}
      freshAge={SESSION_FRESH_AGE_SECONDS}
    >
      {children}
    </AuthUIProvider>
  );
}
