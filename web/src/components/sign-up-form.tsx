// The sign-up form (name, email, password). On failure the password is cleared and the server's error is toasted.
import { type FormEvent, useRef, useState } from 'react';
import { authClient } from '../lib/auth-client';
import { toastError } from '../lib/errors';
import { m } from '../lib/i18n';
import { PASSWORD_MIN_LENGTH, validateEmail, validateName, validatePassword } from '../lib/validation';
import { Button } from './button';
import { TextField } from './text-field';

type Fields = { name: string; email: string; password: string };
type Errors = Partial<Record<keyof Fields, string | undefined>>;

const validate = (fields: Fields): Errors => ({
  name: validateName(fields.name),
  email: validateEmail(fields.email),
  password: validatePassword(fields.password, true),
});

type SignUpFormProps = {
  /** Called when sign-up signed the user in (`signedIn`), or when an emailed verification must come first. */
  onSignedUp: (outcome: 'signedIn' | 'verifyEmail') => Promise<void>;
};

export function SignUpForm({ onSignedUp }: SignUpFormProps) {
  const [fields, setFields] = useState<Fields>({ name: '', email: '', password: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const passwordRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);

  const clearPassword = () => {
    setFields((current) => ({ ...current, password: '' }));
    passwordRef.current?.focus();
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const found = validate(fields);
    setErrors(found);
    if (found.name || found.email || found.password) return;

    setPending(true);
    try {
      const { data, error } = await authClient.signUp.email({
        name: fields.name.trim(),
        email: fields.email.trim(),
        password: fields.password,
      });
      if (error) {
        toastError(error);
        clearPassword();
        return;
      }
      // better-auth returns a session token only when sign-up also signed the user in.
      await onSignedUp(data?.token ? 'signedIn' : 'verifyEmail');
    } catch (error) {
      toastError(error);
      clearPassword();
    } finally {
      setPending(false);
    }
  }

  const update = (field: keyof Fields) => (value: string) => {
    const next = { ...fields, [field]: value };
    setFields(next);
    if (submitted) setErrors(validate(next));
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <TextField
        label={m.field_name()}
        name="name"
        autoComplete="name"
        placeholder={m.field_name_placeholder()}
        value={fields.name}
        onChange={update('name')}
        error={errors.name}
      />
      <TextField
        label={m.field_email()}
        name="email"
        type="email"
        autoComplete="email"
        placeholder={m.field_email_placeholder()}
        value={fields.email}
        onChange={update('email')}
        error={errors.email}
      />
      <TextField
        label={m.field_password()}
        name="password"
        type="password"
        autoComplete="new-password"
        hint={m.field_password_hint({ min: PASSWORD_MIN_LENGTH })}
        value={fields.password}
        onChange={update('password')}
        error={errors.password}
        ref={passwordRef}
      />
      <Button type="submit" pending={pending} className="w-full">
        {m.sign_up_submit()}
      </Button>
    </form>
  );
}
