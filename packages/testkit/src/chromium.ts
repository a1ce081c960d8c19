// The Chromium every browser test drives: Debian's, through playwright-core (never a downloaded browser), at the
// machine's default priority.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const AT_DEFAULT_PRIORITY = fileURLToPath(new URL('../bin/chromium-at-default-priority', import.meta.url));

/**
 * Chromium at the machine's default priority: as root it would raise its display threads to nice -8, ahead of the
 * stack under test (bin/chromium-at-default-priority); anyone else cannot, and starts it as it is.
 */
function chromiumCommand(binary: string): { executablePath: string; env?: Record<string, string> } {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/setpriv')) return { executablePath: binary };
  return { executablePath: AT_DEFAULT_PRIORITY, env: { ...processEnv(), CHROMIUM_BINARY: binary } };
}

const processEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ ...chromiumCommand(process.env.CHROMIUM_PATH || '/usr/bin/chromium'), args: CHROMIUM_ARGS });
}
