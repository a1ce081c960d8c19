// Adding or changing the account's phone number (phone-number-card.tsx opens it): the number, then the code texted
// to it. The number is the account's only once that code comes back (identity stores only verified numbers), so an
// unfinished change leaves the old number in place. It loads with the first click on "Add" or "Change": it brings
// the phone-number metadata.
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { CodeStep, PhoneNumberField } from '../../entities/phone-numbers/phone-fields';
import { phoneNumberCalls } from '../../entities/phone-numbers/phone-number-calls';
import { readPhoneNumber } from '../../entities/phone-numbers/phone-numbers';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { refreshSession } from '../../lib/session';
import { toast } from '../../lib/toast';

type EditorProps = {
  /** The account's number now (E.164), if it has one. */
  current: string | null;
  /** The number is verified and the account's (the session has been read again), or the learner gave up. */
  onDone: () => void;
};

function NumberStep({
  current,
  onSent,
  onCancel,
}: {
  current: string | null;
  onSent: (phoneNumber: string) => void;
  onCancel: () => void;
}) {
  const [typed, setTyped] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [sending, setSending] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    const phoneNumber = readPhoneNumber(typed);
    if (!phoneNumber) return;
    if (phoneNumber === current) {
      toast.error(m.phone_same_number());
      return;
    }
    setSending(true);
    const sent = await phoneNumberCalls.sendCode(phoneNumber).then(() => true, toastError);
    setSending(false);
    if (sent) onSent(phoneNumber);
  }
  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      <PhoneNumberField value={typed} onChange={setTyped} attempted={attempted} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" pending={sending}>
          {m.phone_send_code()}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {m.confirm_cancel()}
        </Button>
      </div>
    </form>
  );
}

export function PhoneNumberEditor({ current, onDone }: EditorProps) {
  const [sent, setSent] = useState<{ phoneNumber: string; sentAt: number }>();
  const codeSent = (phoneNumber: string) => setSent({ phoneNumber, sentAt: Date.now() });

  async function verify(phoneNumber: string, code: string) {
    try {
      await phoneNumberCalls.verify(phoneNumber, code, true);
    } catch (error) {
      toastError(error);
      return false;
    }
    await refreshSession();
    onDone();
    toast.success(m.phone_added());
    return true;
  }

  if (!sent) return <NumberStep current={current} onSent={codeSent} onCancel={onDone} />;
  return (
    <CodeStep
      phoneNumber={sent.phoneNumber}
      sentAt={sent.sentAt}
      verifyLabel={m.phone_verify()}
      onVerify={(code) => verify(sent.phoneNumber, code)}
      onResend={() => phoneNumberCalls.sendCode(sent.phoneNumber).then(() => codeSent(sent.phoneNumber), toastError)}
      onOtherNumber={() => setSent(undefined)}
    />
  );
}
