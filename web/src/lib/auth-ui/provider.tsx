// better-auth-ui, set up for Engram: the auth features identity offers, the app's router, toasts and languages, and
// the paths and limits of docs/product.md (#auth-views, #constants-and-limits). The auth and account screens render
// inside it.

import { AuthUIProvider } from '@daveyplate/better-auth-ui';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, SESSION_FRESH_AGE_SECONDS } from '@engram/contracts/auth';
import { slugOfName } from '@engram/contracts/organizations';
import { useRouter } from '@tanstack/react-router';
import { type ComponentProps, type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { authClient } from '../auth-client';
import { ACCOUNT_BASE_PATH, AUTH_BASE_PATH, ORGANIZATION_BASE_PATH } from '../auth-views';
import type { Catalogue } from '../errors';
import { useLocale } from '../i18n';
import { publicConfig } from '../public-config';
import { queryClient } from '../query-client';
import { DEFAULT_REDIRECT, sameSitePath } from '../redirects';
import { clearCacheIfUserChanged } from '../session-cache';
import { toast } from '../toast';
import { addingAccount, featureProps } from './features';
import { LENGTH_LIMITS } from './length-limits';
import { authLocalization } from './localization';
import { currentPasskeyName } from './passkey-name';
import { usePublicAuthConfig } from './public-config';
import { RouterLink } from './router-link';

type ToastRequest = { variant?: 'default' | 'success' | 'error' | 'info' | 'warning'; message?: string };

/** The library's toasts go to the app's one sonner stack; an error toast is shown once however often it is raised. */
const showToast = ({ variant = 'default', message }: ToastRequest) => {
  if (!message) return;
  if (variant === 'default') toast.message(message);
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

/**
 * Organizations in slug mode (docs/product.md#account-and-organization-screens): `/organization/<slug>/<view>`; an
 * unknown slug goes to the personal path. Logos are stored like avatars (png, 128 px, without an upload service).
 */
const ORGANIZATION = {
  basePath: ORGANIZATION_BASE_PATH,
  pathMode: 'slug' as const,
  personalPath: DEFAULT_REDIRECT,
  logo: { extension: 'png', size: 128 },
  // A new organization's slug follows its name until the user edits it (patched into the create dialog).
  slugFromName: slugOfName,
};

/**
 * Generic OAuth providers sign in at /sign-in/oauth2 (identity). The client's redirect plugin already follows
 * an answer that says `redirect: true`; navigating a second time would open the provider twice, and the
 * second callback would find the state already used (state_mismatch).
 */
async function signInWithGenericProvider(options: unknown) {
  const params = options as { providerId: string; callbackURL?: string };
  const { data, error } = await authClient.$fetch<{ url: string; redirect: boolean }>('/sign-in/oauth2', {
    method: 'POST',
    body: { providerId: params.providerId, callbackURL: params.callbackURL },
  });
  if (error) throw error;
  if (data?.url && !data.redirect) window.location.href = data.url;
}

let loadedCatalogue: Catalogue | undefined;

/**
 * The error catalogue's texts (errors.ts): loaded as soon as the visitor starts using a screen (a key, a
 * pointer, an input), well before any request can fail, rather than with the page, so the sign-in page stays
 * within its budget. A page opened with an error in its address (a failed social sign-in) loads it at once.
 */
function useErrorCatalogue(): Catalogue | undefined {
  const [catalogue, setCatalogue] = useState(loadedCatalogue);
  useEffect(() => {
    if (catalogue) return;
    const events = ['pointerdown', 'keydown', 'input'] as const;
    const stop = () => {
      for (const event of events) document.removeEventListener(event, load, true);
    };
    function load() {
      stop();
      void import('../errors').then((errors) => {
        loadedCatalogue = errors.ERROR_CATALOGUE;
        setCatalogue(errors.ERROR_CATALOGUE);
      });
    }
    for (const event of events) document.addEventListener(event, load, true);
    if (new URLSearchParams(window.location.search).has('error')) load();
    return stop;
  }, [catalogue]);
  return catalogue;
}

type ProviderProps = {
  children: ReactNode;
  /**
   * The organization screens pass the client with the organization plugin (organization-client.ts);
   * every other screen uses the app's client, whose session the route guards read.
   */
  client?: ComponentProps<typeof AuthUIProvider>['authClient'];
  /** Avatars are configured by the screens that show them, so the others do not load their code. */
  avatar?: ComponentProps<typeof AuthUIProvider>['avatar'];
  /**
   * Hooks the library takes from the client, given by a screen whose client lacks them: the account screens
   * keep the app's client but list organizations (the API-key dialog's owner choice) with the organization
   * client's hook; the app's client would make that a request to a path that does not exist.
   */
  hooks?: ComponentProps<typeof AuthUIProvider>['hooks'];
  /** After a sign-up that needs the address verified, with the address the link went to (the auth screens). */
  onVerificationEmailSent?: (email: string) => void;
  /** Calls the library makes, done otherwise by a screen (the account screens ask before a switch of account). */
  mutators?: ComponentProps<typeof AuthUIProvider>['mutators'];
  /** What the sessions card says of each session (the account screens; session-description.ts). */
  describeSession?: ComponentProps<typeof AuthUIProvider>['describeSession'];
  /**
   * The roles the organization screens offer beside owner, admin and member, by their labels: guest, and the
   * organization's custom roles (features/organization/roles).
   */
  customRoles?: { role: string; label: string }[];
};

type Client = NonNullable<ComponentProps<typeof AuthUIProvider>['authClient']>;

/**
 * The client with Google One Tap while it may prompt: where Google sign-in is configured (its client id in the
 * page's settings) and the visitor accepts its cookie category (one-tap.ts, loaded only then).
 */
function useOneTap(client: Client): Client | undefined {
  // Kept in an object: the client is callable (better-auth's path proxy), and React would call a function given
  // to a state setter as an updater.
  const [withOneTap, setWithOneTap] = useState<{ client: Client }>();
  useEffect(() => {
    const clientId = publicConfig().googleClientId;
    if (!clientId) return;
    let stop: (() => void) | undefined;
    let stopped = false;
    void import('./one-tap').then((module) => {
      if (stopped) return;
      stop = module.followOneTap(client, clientId, (shown) => setWithOneTap(shown && { client: shown }));
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [client]);
  return withOneTap?.client;
}

type Hooks = NonNullable<ComponentProps<typeof AuthUIProvider>['hooks']>;

/**
 * The app's client has no organization plugin: asked for the user's organizations (the library's refetcher
 * does so on every view once signed in, e.g. the two-factor set-up), it would request a path that does not
 * exist. Where the app's client is used and no screen gives the organization client's hook, the list is
 * simply not loaded.
 */
const noOrganizationList = (() => ({
  data: undefined,
  error: null,
  isPending: false,
  isRefetching: false,
  refetch: async () => undefined,
})) as unknown as NonNullable<Hooks['useListOrganizations']>;

export function EngramAuthUIProvider({
  children,
  avatar,
  client = authClient,
  hooks = client === authClient ? { useListOrganizations: noOrganizationList } : undefined,
  onVerificationEmailSent,
  mutators,
  describeSession,
  customRoles,
}: ProviderProps) {
  const router = useRouter();
  const locale = useLocale();
  const catalogue = useErrorCatalogue();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the texts are read in the language of the moment.
  const localization = useMemo(() => authLocalization(catalogue), [locale, catalogue]);

  // The library navigates to its own views and to redirectTo values from the address bar: only paths of this
  // site are followed, anything else goes to the dashboard.
  const navigate = useCallback(
    (href: string) =>
      void router.navigate({
        href: addingAccount(sameSitePath(href) ?? DEFAULT_REDIRECT, router.state.location.pathname),
      }),
    [router],
  );
  const features = featureProps(usePublicAuthConfig(), signInWithGenericProvider);
  // Google One Tap, where Google sign-in is configured and its cookies accepted (one-tap.ts).
  const oneTapClient = useOneTap(client);
  const uiClient = oneTapClient ?? client;
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
      authClient={uiClient}
      hooks={hooks}
      mutators={mutators}
      basePath={AUTH_BASE_PATH}
      redirectTo={DEFAULT_REDIRECT}
      navigate={navigate}
      replace={replace}
      Link={RouterLink}
      onSessionChange={onSessionChange}
      toast={showToast}
      localization={localization}
      credentials={CREDENTIALS}
      lengthLimits={LENGTH_LIMITS}
      describeSession={describeSession}
      signUp={{ fields: ['name'] }}
      magicLink
      emailOTP
      oneTap={Boolean(oneTapClient)}
      twoFactor={TWO_FACTOR_METHODS}
      changeEmail
      deleteUser
      account={ACCOUNT}
      organization={{ ...ORGANIZATION, apiKey: Boolean(features.apiKey), customRoles }}
      teams
      avatar={avatar}
      freshAge={SESSION_FRESH_AGE_SECONDS}
      passkeyName={currentPasskeyName}
      onVerificationEmailSent={onVerificationEmailSent}
      {...features}
    >
      {children}
    </AuthUIProvider>
  );
}
