// "/auth/phone-number": signing in with the phone number of one's account (docs/product.md#phone-numbers), with the
// password or with a code texted to it. A learner with two-factor on goes on to the two-factor view after the
// password, as from the other sign-ins; a failed password empties the password field. Once signed in, the session
// is read again, the previous user's cached data dropped, and the learner goes where they were headed.
import { Link, useRouter } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { CodeStep, PhoneNumberField } from '../../entities/phone-numbers/phone-fields';
import { phoneNumberCalls } from '../../entities/phone-numbers/phone-number-calls';
import { readPhoneNumber } from '../../entities/phone-numbers/phone-numbers';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { refreshSession } from '../../lib/session';
import { clearCacheIfUserChanged } from '../../lib/session-cache';

type Method = 'password' | 'code';

type PhoneSignInProps = {
  /** Where a signed-in learner goes (a path of this site). */
  target: string;
  /** The query string the other views keep (redirectTo and the rest). */
  search: Record<string, unknown>;
};

export function PhoneSignIn({ target, search }: PhoneSignInProps) {
  const router = useRouter();
  const [method, setMethod] = useState<Method>('password');
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [pending, setPending] = useState(false);
  const [codeSent, setCodeSent] = useState<{ phoneNumber: string; sentAt: number }>();

  async function signedIn() {
    await refreshSession();
    clearCacheIfUserChanged(queryClient);
    await router.navigate({ href: target });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    const phoneNumber = readPhoneNumber(typed);
    if (!phoneNumber || (method === 'password' && password === '')) return;
    setPending(true);
    try {
      if (method === 'code') {
        await phoneNumberCalls.sendCode(phoneNumber);
        setCodeSent({ phoneNumber, sentAt: Date.now() });
        return;
      }
      const answer = await phoneNumberCalls.signInWithPassword(phoneNumber, password);
      if (answer.twoFactorRedirect) {
        await router.navigate({ to: '/auth/$pathname', params: { pathname: 'two-factor' }, search });
      } else await signedIn();
    } catch (error) {
      // A refused password is typed again from an empty field, without a "required" under it.
      toastError(error);
      setPassword('');
      setAttempted(false);
    } finally {
      setPending(false);
    }
  }

  async function verify(phoneNumber: string, code: string) {
    try {
      await phoneNumberCalls.verify(phoneNumber, code, false);
    } catch (error) {
      toastError(error);
      return false;
    }
    await signedIn();
    return true;
  }

  const choose = (next: Method) => {
    setMethod(next);
    setCodeSent(undefined);
  };
  const tab = (value: Method, label: string) => (
    <button
      type="button"
      aria-pressed={method === value}
      onClick={() => choose(value)}
      className={`flex-1 rounded-md px-3 py-1.5 text-sm font-medium transition-colors ${
        method === value ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
      }`}
    >
      {label}
    </button>
  );

  return (
    <section
      aria-labelledby="phone-sign-in-title"
      className="w-full max-w-sm rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h1 id="phone-sign-in-title" className="text-lg font-semibold text-slate-900">
        {m.phone_sign_in_title()}
      </h1>
      <p className="mt-1 mb-4 text-sm text-slate-600">{m.phone_sign_in_description()}</p>
      <div className="mb-4 flex gap-1 rounded-lg bg-slate-100 p-1">
        {tab('password', m.phone_with_password())}
        {tab('code', m.phone_with_code())}
      </div>
      {codeSent ? (
        <CodeStep
          phoneNumber={codeSent.phoneNumber}
          sentAt={codeSent.sentAt}
          verifyLabel={m.authui_sign_in()}
          onVerify={(code) => verify(codeSent.phoneNumber, code)}
          onResend={() =>
            phoneNumberCalls
              .sendCode(codeSent.phoneNumber)
              .then(() => setCodeSent({ ...codeSent, sentAt: Date.now() }), toastError)
          }
          onOtherNumber={() => setCodeSent(undefined)}
        />
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
          <PhoneNumberField value={typed} onChange={setTyped} attempted={attempted} />
          {method === 'password' && (
            <TextField
              label={m.authui_password()}
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={setPassword}
              error={attempted && password === '' ? m.authui_password_required() : undefined}
            />
          )}
          <Button type="submit" pending={pending} className="w-full">
            {method === 'password' ? m.authui_sign_in() : m.phone_send_code()}
          </Button>
        </form>
      )}
      <p className="mt-4 text-xs text-slate-500">{m.phone_sign_in_no_number()}</p>
      <Link
        to="/auth/$pathname"
        params={{ pathname: 'sign-in' }}
        search={search}
        className="mt-4 block text-center text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
      >
        {m.phone_sign_in_other()}
      </Link>
    </section>
  );
}
