// The email and password sign-in form. On failure the password is cleared and the server's error is toasted.
import { type FormEvent, useRef, useState } from 'react';
import { authClient } from '../lib/auth-client';
import { toastError } from '../lib/errors';
import { m } from '../lib/i18n';
import { validateEmail, validatePassword } from '../lib/validation';
import { Button } from './button';
import { TextField } from './text-field';

type Errors = { email?: string | undefined; password?: string | undefined };

export function SignInForm({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const passwordRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);

  const validate = (next: { email: string; password: string }): Errors => ({
    email: validateEmail(next.email),
    password: validatePassword(next.password),
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const found = validate({ email, password });
    setErrors(found);
    if (found.email || found.password) return;

    setPending(true);
    try {
      const { error } = await authClient.signIn.email({ email: email.trim(), password });
      if (error) {
        toastError(error);
        setPassword('');
        passwordRef.current?.focus();
        return;
      }
      await onSignedIn();
    } catch (error) {
      toastError(error);
      setPassword('');
    } finally {
      setPending(false);
    }
  }

  // After the first attempt, errors follow the user's edits instead of waiting for the next submit.
  const update = (field: keyof Errors, value: string) => {
    const next = { email, password, [field]: value };
    if (field === 'email') setEmail(value);
    else setPassword(value);
    if (submitted) setErrors(validate(next));
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <TextField
        label={m.field_email()}
        name="email"
        type="email"
        autoComplete="email"
        placeholder={m.field_email_placeholder()}
        value={email}
        onChange={(value) => update('email', value)}
        error={errors.email}
      />
      <TextField
        label={m.field_password()}
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(value) => update('password', value)}
        error={errors.password}
        ref={passwordRef}
      />
      <Button type="submit" pending={pending} className="w-full">
        {m.sign_in_submit()}
      </Button>
    </form>
  );
}
