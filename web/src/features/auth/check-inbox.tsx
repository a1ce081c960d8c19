// After a sign-up that needs the address verified: the sign-in view first says where the link went, and
// sends it again on request (better-auth's sendVerificationEmail, with the sign-up's destination, so the
// link still ends where the learner was headed). identity allows a few links a minute; past that the
// learner is told how long to wait.
import { useState } from 'react';
import { Button } from '../../components/button';
import { authClient } from '../../lib/auth-client';
import { httpStatus } from '../../lib/error-codes';
import { m } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { toastErrorLater } from '../../lib/toast-error-later';

/** better-auth's window for mailed links when its answer names no wait. */
const DEFAULT_WAIT_SECONDS = 60;

type CheckInboxProps = {
  email: string;
  /** Where the link leads once the address is verified. */
  callbackURL: string;
  /** Signing up again with another address. */
  onOtherAddress: () => void;
};

export function CheckInbox({ email, callbackURL, onOtherAddress }: CheckInboxProps) {
  const [sending, setSending] = useState(false);

  async function resend() {
    setSending(true);
    let waitSeconds = DEFAULT_WAIT_SECONDS;
    const { error } = await authClient.sendVerificationEmail({
      email,
      callbackURL,
      fetchOptions: {
        onError: ({ response }) => {
          waitSeconds = Number(response.headers.get('x-retry-after')) || DEFAULT_WAIT_SECONDS;
        },
      },
    });
    setSending(false);
    if (!error) toast.success(m.check_inbox_resent({ email }));
    else if (httpStatus(error) === 429) toast.error(m.check_inbox_wait({ seconds: waitSeconds }));
    else toastErrorLater({ error });
  }

  return (
    <section
      aria-labelledby="check-inbox-title"
      className="mb-6 w-full max-w-sm rounded-xl bg-white p-6 text-sm text-slate-600 shadow-sm ring-1 ring-brand-200"
    >
      <h1 id="check-inbox-title" className="text-lg font-semibold text-slate-900">
        {m.check_inbox_title()}
      </h1>
      <p className="mt-2">
        {m.check_inbox_sent_to()} <strong className="break-all text-slate-900">{email}</strong>
      </p>
      <p className="mt-2">{m.check_inbox_open()}</p>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button variant="secondary" pending={sending} onClick={() => void resend()}>
          {m.check_inbox_resend()}
        </Button>
        <button
          type="button"
          onClick={onOtherAddress}
          className="font-medium text-brand-700 underline-offset-4 hover:underline"
        >
          {m.check_inbox_other_address()}
        </button>
      </div>
    </section>
  );
}
