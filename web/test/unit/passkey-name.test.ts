// A new passkey is named after the browser and the device it was made on, read from the user agent, so the
// owner's list tells them apart without anyone typing a name.
import { afterEach, describe, expect, it } from 'vitest';
import { deviceName, passkeyName } from '../../src/lib/auth-ui/passkey-name.ts';
import { setLocale } from '../../src/lib/i18n.ts';

const AGENTS = {
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.51',
  firefoxMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:132.0) Gecko/20100101 Firefox/132.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  samsungAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  chromeLinux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chromebook:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

afterEach(() => setLocale('en'));

describe('the name a new passkey is given', () => {
  it('names the browser and the device it was made on', () => {
    expect(passkeyName(AGENTS.chromeAndroid)).toBe('Chrome on Android');
    expect(passkeyName(AGENTS.safariIphone)).toBe('Safari on iPhone');
    expect(passkeyName(AGENTS.chromeIphone)).toBe('Chrome on iPhone');
    expect(passkeyName(AGENTS.edgeWindows)).toBe('Edge on Windows');
    expect(passkeyName(AGENTS.firefoxMac)).toBe('Firefox on Mac');
    expect(passkeyName(AGENTS.safariMac)).toBe('Safari on Mac');
    expect(passkeyName(AGENTS.samsungAndroid)).toBe('Samsung Internet on Android');
    expect(passkeyName(AGENTS.chromeLinux)).toBe('Chrome on Linux');
    expect(passkeyName(AGENTS.chromebook)).toBe('Chrome on ChromeOS');
  });

  it('is said in the language of the page', () => {
    setLocale('pt-BR');
    expect(passkeyName(AGENTS.chromeAndroid)).toBe('Chrome no Android');
  });

  it('falls back to what is known, or to the unnamed label', () => {
    expect(passkeyName('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('Windows');
    expect(passkeyName('curl/8.5.0')).toBe('Unnamed passkey');
  });
});

describe("the device an admin sees for a user's session", () => {
  it('is named as a passkey would be, and is nothing for an agent that names neither browser nor device', () => {
    expect(deviceName(AGENTS.safariIphone)).toBe('Safari on iPhone');
    expect(deviceName('Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/131.0.0.0 Safari/537.36')).toBe(
      'Chrome on Linux',
    );
    expect(deviceName('curl/8.5.0')).toBeUndefined();
    expect(deviceName('')).toBeUndefined();
  });
});
