// Loads the cookie banner's code apart from the entry, after the first render (consent.ts).
const consent = () => import('./consent');

export function startConsentAfterRender(): void {
  void consent().then((module) => module.startConsent());
}

/** The footer's "Cookie settings" link: reopens the preferences with the current choice. */
export async function openCookieSettings(): Promise<void> {
  const module = await consent();
  await module.startConsent();
  module.showCookieSettings();
}

/** Whether the visitor accepts Google One Tap, now and after every decision (consent.ts). */
export function followGoogleSignInConsent(listener: (accepted: boolean) => void): () => void {
  let stop: (() => void) | undefined;
  let stopped = false;
  void consent().then((module) => {
    if (!stopped) stop = module.followGoogleSignInConsent(listener);
  });
  return () => {
    stopped = true;
    stop?.();
  };
}
