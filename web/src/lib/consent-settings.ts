// The consent cookie's settings (docs/product.md#cookie-consent-and-analytics), apart from the banner's code so
// pages can name them cheaply.
export const CONSENT_COOKIE = 'cc_cookie';
export const CONSENT_DAYS = 182;
/** Raise when the categories or their purpose change: everyone is asked again. */
export const CONSENT_REVISION = 1;
/** The optional category: Google Analytics 4's analytics_storage. */
export const ANALYTICS = 'analytics';
/** better-auth's session cookie (its default name; `__Secure-` is prefixed over https). */
export const SESSION_COOKIE = 'better-auth.session_token';
