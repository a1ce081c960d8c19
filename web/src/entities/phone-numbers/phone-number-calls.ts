// identity's phone-number endpoints (docs/product.md#phone-numbers), as the screens call them; a refusal is thrown
// (its code finds the catalogue's text). Numbers are sent in E.164 (phone-numbers.ts reads them).
import { authClient } from '../../lib/auth-client';

async function post<T>(path: string, body: Record<string, unknown>): Promise<T> {
  const { data, error } = await authClient.$fetch<T>(path, { method: 'POST', body });
  if (error) throw error;
  return data as T;
}

/** identity's phone-number endpoints; a refusal is thrown (its code finds the catalogue's text). */
export const phoneNumberCalls = {
  /** Texts a code to the number (to one without an account only for a signed-in learner adding it). */
  sendCode: (phoneNumber: string) => post<{ message: string }>('/phone-number/send-otp', { phoneNumber }),
  /** The code back: adds the number to the signed-in account, or signs in with it. */
  verify: (phoneNumber: string, code: string, addToAccount: boolean) =>
    post<{ status: boolean }>('/phone-number/verify', { phoneNumber, code, updatePhoneNumber: addToAccount }),
  signInWithPassword: (phoneNumber: string, password: string) =>
    post<{ twoFactorRedirect?: boolean }>('/sign-in/phone-number', { phoneNumber, password }),
  remove: () => post<{ status: boolean }>('/phone-number/remove', {}),
};
