// Google Analytics 4 in consent mode (docs/product.md#cookie-consent-and-analytics): analytics storage is denied by
// default, with 500 ms for the consent banner to answer; the visitor's decision is passed on as granted or denied;
// the tag itself is loaded only when a measurement id is configured, and only once analytics has been accepted.
import { publicConfig } from './public-config';

type GtagArguments = IArguments | unknown[];
type AnalyticsWindow = Window & { dataLayer?: GtagArguments[]; gtag?: (...args: unknown[]) => void };

export const GTAG_URL = 'https://www.googletagmanager.com/gtag/js';
/** How long the tag waits for the banner's answer before measuring without storage. */
export const CONSENT_WAIT_MS = 500;

const analyticsWindow = () => window as AnalyticsWindow;

/** gtag.js reads the dataLayer's entries as `arguments` objects, exactly as Google's snippet pushes them. */
function gtag(..._args: unknown[]): void {
  const w = analyticsWindow();
  w.dataLayer ??= [];
  // biome-ignore lint/complexity/noArguments: gtag.js recognises only an arguments object in the dataLayer.
  w.dataLayer.push(arguments);
}

let tagLoaded = false;

/** Runs before anything else can measure: no consent decided means no analytics storage. */
export function setDefaultAnalyticsConsent(): void {
  const w = analyticsWindow();
  w.gtag ??= gtag;
  gtag('consent', 'default', { analytics_storage: 'denied', wait_for_update: CONSENT_WAIT_MS });
}

/** Tells Google the decision; on the first acceptance with an id configured, loads the tag. */
export function updateAnalyticsConsent(granted: boolean): void {
  gtag('consent', 'update', { analytics_storage: granted ? 'granted' : 'denied' });
  const id = publicConfig().analyticsId;
  if (!granted || !id || tagLoaded) return;
  tagLoaded = true;
  gtag('js', new Date());
  gtag('config', id);
  const script = document.createElement('script');
  script.async = true;
  script.src = `${GTAG_URL}?id=${encodeURIComponent(id)}`;
  document.head.append(script);
}
