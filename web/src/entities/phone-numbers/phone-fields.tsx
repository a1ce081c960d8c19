// The two steps every phone-number form shares: the number (typed as the learner writes it, checked as they type
// once they tried to send it), and the code texted to it (six digits, sent as soon as the sixth is typed or
// pasted, or filled in by the phone itself: autocomplete="one-time-code", and the WebOTP API where the browser has
// it), with another code offered once SMS_RESEND_SECONDS have passed. A refused code empties the field.
import { OTP_LENGTH } from '@engram/contracts/auth';
import { formatPhoneNumber, getCountryCallingCode, SMS_RESEND_SECONDS } from '@engram/contracts/phone-numbers';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { m } from '../../lib/i18n';
import { codeDigits, countryName, learnerCountry, readPhoneNumber } from './phone-numbers';

/** The number's field: its error once the learner tried to send it, kept up to date as they type. */
export function PhoneNumberField({
  value,
  onChange,
  attempted,
}: {
  value: string;
  onChange: (value: string) => void;
  attempted: boolean;
}) {
  const country = learnerCountry();
  return (
    <TextField
      label={m.phone_label()}
      name="phoneNumber"
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      value={value}
      onChange={onChange}
      hint={
        country
          ? m.phone_hint_country({ country: countryName(country), code: getCountryCallingCode(country) })
          : m.phone_hint()
      }
      error={attempted && !readPhoneNumber(value) ? m.phone_invalid() : undefined}
    />
  );
}

/** Seconds left before another code may be asked for, counting down from `sentAt`. */
function useSecondsLeft(sentAt: number): number {
  const left = () => Math.max(0, Math.ceil((sentAt + SMS_RESEND_SECONDS * 1_000 - Date.now()) / 1_000));
  const [seconds, setSeconds] = useState(left);
  // biome-ignore lint/correctness/useExhaustiveDependencies: left reads sentAt, the one dependency.
  useEffect(() => {
    setSeconds(left());
    const timer = setInterval(() => {
      const now = left();
      setSeconds(now);
      if (now === 0) clearInterval(timer);
    }, 1_000);
    return () => clearInterval(timer);
  }, [sentAt]);
  return seconds;
}

type OtpCredential = Credential & { code: string };

/** Where the browser reads an incoming text for this site (WebOTP: Chrome on Android), the code it holds. */
function useCodeFromText(onCode: (code: string) => void) {
  const handler = useRef(onCode);
  handler.current = onCode;
  useEffect(() => {
    if (!('OTPCredential' in window)) return;
    const abort = new AbortController();
    navigator.credentials
      .get({ otp: { transport: ['sms'] }, signal: abort.signal } as CredentialRequestOptions)
      .then((credential) => {
        const code = (credential as OtpCredential | null)?.code;
        if (code) handler.current(code);
      })
      .catch(() => undefined); // dismissed, aborted, or not offered: the learner types it
    return () => abort.abort();
  }, []);
}

type CodeStepProps = {
  /** The number the code went to, in E.164. */
  phoneNumber: string;
  /** When the last code was sent (Date.now()), for the wait before another. */
  sentAt: number;
  /** The code back; resolves false when it was refused (the field then empties). */
  onVerify: (code: string) => Promise<boolean>;
  onResend: () => void;
  onOtherNumber: () => void;
  verifyLabel: string;
};

export function CodeStep({ phoneNumber, sentAt, onVerify, onResend, onOtherNumber, verifyLabel }: CodeStepProps) {
  const [code, setCode] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [pending, setPending] = useState(false);
  const secondsLeft = useSecondsLeft(sentAt);
  const complete = (value: string) => codeDigits(value).length === OTP_LENGTH;

  async function verify(value: string) {
    setAttempted(true);
    if (!complete(value) || pending) return;
    setPending(true);
    const accepted = await onVerify(codeDigits(value));
    setPending(false);
    if (!accepted) {
      setCode('');
      setAttempted(false);
    }
  }
  useCodeFromText((received) => {
    setCode(received);
    void verify(received);
  });

  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void verify(code);
      }}
    >
      <p className="text-sm text-slate-600" aria-live="polite">
        {m.phone_code_sent({ number: formatPhoneNumber(phoneNumber) })}
      </p>
      <TextField
        label={m.phone_code_label()}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(value) => {
          setCode(value);
          if (complete(value)) void verify(value);
        }}
        error={attempted && !complete(code) ? m.phone_code_invalid() : undefined}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" pending={pending}>
          {verifyLabel}
        </Button>
        <Button variant="secondary" disabled={secondsLeft > 0} onClick={onResend}>
          {secondsLeft > 0 ? m.phone_resend_in({ seconds: secondsLeft }) : m.phone_resend()}
        </Button>
        <button
          type="button"
          onClick={onOtherNumber}
          className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
        >
          {m.phone_other_number()}
        </button>
      </div>
    </form>
  );
}
