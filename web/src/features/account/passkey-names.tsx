// Below better-auth-ui's passkeys card (which adds and deletes passkeys): each passkey's name, which its
// owner can change (the library has no control for it). It reads the library's own list (same cache), so a
// passkey added above shows here at once.
import { AuthUIContext } from '@daveyplate/better-auth-ui';
import { type FormEvent, useContext, useState } from 'react';
import { Button } from '../../components/button';
import { authClient } from '../../lib/auth-client';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { toast } from '../../lib/toast';

type ListedPasskey = { id: string; name?: string | null; createdAt: string | Date };

/** better-auth's limit for a passkey's name is its string column; a name people read stays short. */
const NAME_MAX_LENGTH = 64;

function PasskeyRow({ passkey, onRenamed }: { passkey: ListedPasskey; onRenamed: () => Promise<unknown> }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name ?? '');
  const [saving, setSaving] = useState(false);
  const shown = passkey.name || m.passkey_unnamed();

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > NAME_MAX_LENGTH) return;
    setSaving(true);
    const { error } = await authClient.passkey.updatePasskey({ id: passkey.id, name: trimmed });
    setSaving(false);
    if (error) return toastError(error);
    toast.success(m.passkey_renamed({ name: trimmed }));
    setEditing(false);
    await onRenamed();
  };

  if (!editing) {
    return (
      <li className="flex items-center justify-between gap-3 text-sm">
        <span className="font-medium text-slate-900">{shown}</span>
        <Button
          variant="secondary"
          aria-label={m.passkey_rename_label({ name: shown })}
          onClick={() => setEditing(true)}
        >
          {m.passkey_rename()}
        </Button>
      </li>
    );
  }
  const invalid = name.trim() === '' || name.trim().length > NAME_MAX_LENGTH;
  return (
    <li>
      <form className="flex flex-wrap items-center gap-2 text-sm" onSubmit={(event) => void save(event)}>
        <label className="sr-only" htmlFor={`passkey-name-${passkey.id}`}>
          {m.passkey_name_label()}
        </label>
        <input
          id={`passkey-name-${passkey.id}`}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900"
          value={name}
          maxLength={NAME_MAX_LENGTH}
          aria-invalid={invalid || undefined}
          onChange={(event) => setName(event.target.value)}
        />
        <Button type="submit" pending={saving} disabled={invalid}>
          {m.passkey_save()}
        </Button>
        <Button variant="ghost" onClick={() => setEditing(false)}>
          {m.passkey_cancel()}
        </Button>
      </form>
    </li>
  );
}

export function PasskeyNames() {
  const {
    hooks: { useListPasskeys },
  } = useContext(AuthUIContext);
  const { data, refetch } = useListPasskeys();
  const passkeys = (data ?? []) as ListedPasskey[];
  if (passkeys.length === 0) return null;
  return (
    <section aria-labelledby="passkey-names" className="mt-6 rounded-xl bg-white p-6 ring-1 ring-slate-200">
      <h2 id="passkey-names" className="text-lg font-semibold text-slate-900">
        {m.passkey_names_title()}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{m.passkey_names_text()}</p>
      <ul className="mt-4 grid gap-3">
        {passkeys.map((passkey) => (
          <PasskeyRow key={passkey.id} passkey={passkey} onRenamed={async () => refetch?.()} />
        ))}
      </ul>
    </section>
  );
}
