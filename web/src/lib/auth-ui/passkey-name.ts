// The name a new passkey is given: the browser and the device it was made on ("Chrome on Android"), read
// from the user agent in the browser, so a list of passkeys says which is which without the owner typing a
// name (they can rename one in place: features/account/passkey-names.tsx). The admin area names a user's
// sessions the same way. Names of products are not translated; the sentence that joins them is.
import { m } from '../i18n';

/** The browser, most specific first: Edge, Opera and Samsung Internet also say "Chrome" and "Safari". */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|Chrome\/|\bChromium\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];

/** The device or system, most specific first: an iPhone's agent says "like Mac OS X", Android's "Linux". */
const DEVICES: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b|\bMac OS X\b/, 'Mac'],
  [/\bLinux\b/, 'Linux'],
];

const first = (table: [RegExp, string][], userAgent: string) => table.find(([pattern]) => pattern.test(userAgent))?.[1];

/** "Chrome on Android", "Safari on iPhone"; the browser or the device alone when only one is known, and
 * nothing when neither is. */
export function deviceName(userAgent: string): string | undefined {
  const browser = first(BROWSERS, userAgent);
  const device = first(DEVICES, userAgent);
  if (browser && device) return m.passkey_default_name({ browser, device });
  return browser ?? device;
}

/** The device's name, or "Unnamed passkey" for an agent that names neither browser nor device. */
export const passkeyName = (userAgent: string): string => deviceName(userAgent) ?? m.passkey_unnamed();

/** The name for a passkey made in this browser now. */
export const currentPasskeyName = () => passkeyName(navigator.userAgent);
