// The cookie-consent banner (vanilla-cookieconsent 3, docs/product.md#cookie-consent-and-analytics): necessary
// cookies always on, analytics (Google Analytics 4's analytics_storage) only by choice: accept all, necessary only,
// or a custom choice in the preferences. The decision is the cookie cc_cookie for 182 days (SameSite Lax, Secure
// over https), holding the consent record: categories, services, revision, consent timestamp, consent id, language
// and expiry. Declining clears the _ga, _gid and _gat cookies. Where Google sign-in is configured, a third category
// asks about Google One Tap on the sign-in views (its client loads from Google), and the revision goes one up. The
// banner speaks the app's language and follows a switch. Loaded after the first render, so it never holds up a page.
import * as CookieConsent from 'vanilla-cookieconsent';
import 'vanilla-cookieconsent/dist/cookieconsent.css';
import { setDefaultAnalyticsConsent, updateAnalyticsConsent } from './analytics';
import { ANALYTICS, CONSENT_COOKIE, CONSENT_DAYS, CONSENT_REVISION, SESSION_COOKIE } from './consent-settings';
import { getLocale, type Locale, locales, m, onLocaleChange } from './i18n';
import { publicConfig } from './public-config';

/** Whether this installation offers Google sign-in, and so asks about Google One Tap. */
const googleSignIn = () => Boolean(publicConfig().googleClientId);

/**
 * The optional category where Google sign-in is configured: Google One Tap on the sign-in views, whose client loads
 * from Google. An installation that turns it on asks everyone again: the record's revision is one more.
 */
export const GOOGLE_SIGN_IN = 'google-sign-in';

type GoogleTexts = typeof import('./consent-google');

/** The banner's texts in `locale`, from the app's messages (web/messages); the Google section's where it shows. */
function translation(locale: Locale, google: GoogleTexts | undefined): CookieConsent.Translation {
  const t = { locale };
  const cookieHeaders = {
    name: m.consent_cookie_name({}, t),
    purpose: m.consent_cookie_purpose({}, t),
    expiry: m.consent_cookie_expiry({}, t),
  };
  return {
    consentModal: {
      title: m.consent_title({}, t),
      description: m.consent_description({}, t),
      acceptAllBtn: m.consent_accept_all({}, t),
      acceptNecessaryBtn: m.consent_accept_necessary({}, t),
      showPreferencesBtn: m.consent_manage({}, t),
      footer: `<a href="/privacy">${m.footer_privacy({}, t)}</a>`,
    },
    preferencesModal: {
      title: m.consent_preferences_title({}, t),
      acceptAllBtn: m.consent_accept_all({}, t),
      acceptNecessaryBtn: m.consent_accept_necessary({}, t),
      savePreferencesBtn: m.consent_save({}, t),
      closeIconLabel: m.consent_close({}, t),
      serviceCounterLabel: m.consent_services({}, t),
      sections: [
        { description: m.consent_preferences_intro({}, t) },
        {
          title: m.consent_necessary_title({}, t),
          description: m.consent_necessary_text({}, t),
          linkedCategory: 'necessary',
          cookieTable: {
            headers: cookieHeaders,
            body: [
              {
                name: SESSION_COOKIE,
                purpose: m.consent_cookie_session({}, t),
                expiry: m.consent_expiry_session({}, t),
              },
              {
                name: CONSENT_COOKIE,
                purpose: m.consent_cookie_consent({}, t),
                expiry: m.consent_expiry_days({ days: CONSENT_DAYS }, t),
              },
            ],
          },
        },
        {
          title: m.consent_analytics_title({}, t),
          description: m.consent_analytics_text({}, t),
          linkedCategory: ANALYTICS,
          cookieTable: {
            headers: cookieHeaders,
            body: [
              {
                name: '_ga, _ga_*',
                purpose: m.consent_cookie_ga({}, t),
                expiry: m.consent_expiry_years({ years: 2 }, t),
              },
              { name: '_gid', purpose: m.consent_cookie_gid({}, t), expiry: m.consent_expiry_hours({ hours: 24 }, t) },
              { name: '_gat', purpose: m.consent_cookie_gat({}, t), expiry: m.consent_expiry_minute({}, t) },
            ],
          },
        },
        ...(google ? [google.googleSection(locale, GOOGLE_SIGN_IN)] : []),
        {
          title: m.consent_more_title({}, t),
          description: m.consent_more_text({ privacy: '<a href="/privacy">/privacy</a>' }, t),
        },
      ],
    },
  };
}

/** Analytics follows the decision: granted only while its category is accepted. */
const followDecision = () => updateAnalyticsConsent(CookieConsent.acceptedCategory(ANALYTICS));

let started: Promise<void> | undefined;

/** Shows the banner when no valid decision is stored; otherwise applies the stored one. Runs once. */
export function startConsent(): Promise<void> {
  started ??= run();
  return started;
}

async function run(): Promise<void> {
  setDefaultAnalyticsConsent();
  // Most installations have no Google sign-in: its section's texts are not in every page's code.
  const google = googleSignIn() ? await import('./consent-google') : undefined;
  // The library's defaults are the ones wanted, so they are not repeated here (the banner counts against every
  // page's JavaScript budget): opt-in mode, cookies cleared on a decline, the cookie SameSite Lax and Secure only
  // over https, box layouts with buttons of equal weight.
  await CookieConsent.run({
    revision: CONSENT_REVISION + (google ? 1 : 0),
    manageScriptTags: false,
    // Shown to automated browsers too (accessibility checkers, tests): the decision is the same for all.
    hideFromBots: false,
    cookie: { name: CONSENT_COOKIE, expiresAfterDays: CONSENT_DAYS },
    guiOptions: { consentModal: { position: 'bottom left' } },
    categories: {
      necessary: { enabled: true, readOnly: true },
      [ANALYTICS]: {
        services: { ga4: { label: 'Google Analytics 4' } },
        autoClear: { cookies: [{ name: /^_ga/ }, { name: '_gid' }, { name: /^_gat/ }] },
      },
      ...(google && { [GOOGLE_SIGN_IN]: google.GOOGLE_CATEGORY }),
    },
    language: {
      default: getLocale(),
      translations: Object.fromEntries(locales.map((locale) => [locale, translation(locale, google)])),
    },
    // A stored decision on every load, and the first one: analytics follows it.
    onConsent: followDecision,
    onChange: followDecision,
    // As a dialog opens, the library focuses an untabbable anchor at its start, and its focus trap lets Shift+Tab
    // from there leave the dialog for the page behind: from the anchor, Shift+Tab goes to the dialog's last
    // control instead.
    onModalReady: ({ modal }) =>
      modal.firstElementChild?.addEventListener('keydown', (event) => {
        if ((event as KeyboardEvent).key === 'Tab' && (event as KeyboardEvent).shiftKey) {
          event.preventDefault();
          [...modal.querySelectorAll<HTMLElement>('button,a')].pop()?.focus();
        }
      }),
  });
  onLocaleChange(() => void CookieConsent.setLanguage(getLocale(), true));
}

/**
 * Calls `listener` with whether the visitor accepts Google One Tap, once the stored decision is read and after every
 * decision, until the returned function is called (lib/auth-ui/one-tap.ts).
 */
export function followGoogleSignInConsent(listener: (accepted: boolean) => void): () => void {
  const tell = () => listener(CookieConsent.validConsent() && CookieConsent.acceptedCategory(GOOGLE_SIGN_IN));
  const events = ['cc:onConsent', 'cc:onChange'];
  for (const event of events) window.addEventListener(event, tell);
  void startConsent().then(tell);
  return () => {
    for (const event of events) window.removeEventListener(event, tell);
  };
}

/** The footer's "Cookie settings": the preferences, with the current choice, to change it. */
export function showCookieSettings(): void {
  CookieConsent.showPreferences();
}
