// The passkey client (@better-auth/passkey/client) imports @simplewebauthn/browser, and the auth client is
// part of every page, so every first visit would carry the WebAuthn ceremony code (about 4 KB gzipped) that
// only a passkey button or "Add passkey" uses. This plugin hands the client src/lib/webauthn-on-demand.ts
// instead, which loads the real package when a ceremony starts; the shim itself imports the real one.
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const PACKAGE = '@simplewebauthn/browser';
const SHIM = fileURLToPath(new URL('../src/lib/webauthn-on-demand.ts', import.meta.url));

export function webauthnOnDemand(): Plugin {
  return {
    name: 'engram-webauthn-on-demand',
    enforce: 'pre',
    resolveId(id, importer) {
      if (id === PACKAGE && importer !== SHIM) return SHIM;
      return undefined;
    },
  };
}
