// What the passkey client uses of @simplewebauthn/browser, loading the package only when a passkey ceremony
// starts (build/webauthn-on-demand.ts routes the client's import here). Its WebAuthnError is re-thrown as
// this module's class, so the client's `instanceof WebAuthnError` still reads the error's code.
import type * as WebAuthnBrowser from '@simplewebauthn/browser';

type Real = typeof WebAuthnBrowser;

const load = (): Promise<Real> => import('@simplewebauthn/browser');

export class WebAuthnError extends Error {
  code = 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY';
}

function ours(real: Real, error: unknown): unknown {
  if (error instanceof real.WebAuthnError) Object.setPrototypeOf(error, WebAuthnError.prototype);
  return error;
}

export async function startAuthentication(
  ...args: Parameters<Real['startAuthentication']>
): ReturnType<Real['startAuthentication']> {
  const real = await load();
  try {
    return await real.startAuthentication(...args);
  } catch (error) {
    throw ours(real, error);
  }
}

export async function startRegistration(
  ...args: Parameters<Real['startRegistration']>
): ReturnType<Real['startRegistration']> {
  const real = await load();
  try {
    return await real.startRegistration(...args);
  } catch (error) {
    throw ours(real, error);
  }
}
