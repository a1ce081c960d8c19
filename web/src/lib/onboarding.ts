// Spec §2's onboarding rule for the protected group: a user without onboardedAt belongs on /onboarding,
// and an onboarded user has nothing left to do there.
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
