// The configuration the browser may know (its public settings), filled into every page by the gateway
// as a JSON data block: no request, and nothing to wait for. Absent (the Vite dev server), nothing is set.
export interface PublicConfig {
  /** Where the help, terms and privacy pages send people for support. */
  supportEmail?: string;
  /** The Google Analytics 4 measurement id; without one no analytics tag is ever loaded. */
  analyticsId?: string;
  /** Google sign-in's client id; without one nothing of Google's sign-in is ever loaded (no One Tap). */
  googleClientId?: string;
}

let cached: PublicConfig | undefined;

export function publicConfig(): PublicConfig {
  if (cached) return cached;
  const element = typeof document === 'undefined' ? null : document.getElementById('engram-config');
  try {
    cached = element?.textContent ? (JSON.parse(element.textContent) as PublicConfig) : {};
  } catch {
    cached = {};
  }
  return cached;
}
