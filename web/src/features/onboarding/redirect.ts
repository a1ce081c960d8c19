// The onboarding rule of the protected group (docs/product.md#the-protected-group): a user without onboardedAt
// belongs on /onboarding, and an onboarded user has nothing left to do there. Where the user was headed waits in
// /onboarding's redirectTo (the dashboard needs none), so onboarding ends there: an invitee's invitation, say.
export const ONBOARDING_PATH = '/onboarding';
export const HOME_PATH = '/dashboard';

export function onboardingRedirect(
  pathname: string,
  onboardedAt: Date | string | null | undefined,
): typeof ONBOARDING_PATH | typeof HOME_PATH | undefined {
  const onboarding = pathname === ONBOARDING_PATH || pathname.startsWith(`${ONBOARDING_PATH}/`);
  if (!onboardedAt) return onboarding ? undefined : ONBOARDING_PATH;
  return onboarding ? HOME_PATH : undefined;
}

/** /onboarding's search params: where to go once onboarded (a path of this site, checked when followed). */
export type OnboardingSearch = { redirectTo?: string | undefined };

export const validateOnboardingSearch = (raw: Record<string, unknown>): OnboardingSearch => ({
  redirectTo: typeof raw.redirectTo === 'string' ? raw.redirectTo : undefined,
});

/** The search for /onboarding of a user sent there from `href` (path and search). */
export const onboardingSearch = (href: string): OnboardingSearch => (href === HOME_PATH ? {} : { redirectTo: href });
