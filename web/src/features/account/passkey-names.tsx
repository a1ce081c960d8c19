// Below better-auth-ui's passkeys card (which adds and deletes passkeys): each passkey's name, which its
// owner can change (the library has no control for it). It reads the library's own list (same cache), so a
// passkey added above shows here at once.
import { AuthUIContext } from '@daveyplate/better-auth-ui';
import { useContext, useState } from 'react';
import { Button } from '../../components/button';
import { authClient } from '../../lib/auth-client';
import { hasErrors, useContractForm } from '../../lib/form';
import { m } from '../../lib/i18n';

type ListedPasskey = { id: string; name?: string | null; createdAt: string | Date };

/** better-auth's limit for a passkey's name is its string column; a name people read stays short. */
const NAME_MAX_LENGTH = 64;

type NameDraft = { name: string };

/** A passkey's name, once trimmed: not blank, and short. The row shows no message for it: Save stays disabled,
 * and the field marked invalid, while there is one. */
const nameProblems = (draft: NameDraft) => {
  const trimmed = draft.name.trim();
  return trimmed === '' || trimmed.length > NAME_MAX_LENGTH
    ? { name: m.passkey_name_invalid({ max: NAME_MAX_LENGTH }) }
    : {};
};

function PasskeyRow({ passkey, onRenamed }: { passkey: ListedPasskey; onRenamed: () => Promise<unknown> }) {
  const [editing, setEditing] = useState(false);
  const form = useContractForm({
    initial: { name: passkey.name ?? '' },
    check: nameProblems,
    input: (draft) => ({ id: passkey.id, name: draft.name.trim() }),
    mutation: {
      mutationFn: async (input: { id: string; name: string }) => {
        const { error } = await authClient.passkey.updatePasskey(input);
        if (error) throw error;
      },
    },
    saved: (_, input) => m.passkey_renamed({ name: input.name }),
    onSaved: () => setEditing(false),
    invalidate: onRenamed,
  });
  const shown = passkey.name || m.passkey_unnamed();

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
  const invalid = hasErrors(nameProblems(form.draft));
  return (
    <li>
      <form className="flex flex-wrap items-center gap-2 text-sm" onSubmit={form.submit}>
        <label className="sr-only" htmlFor={`passkey-name-${passkey.id}`}>
          {m.passkey_name_label()}
        </label>
        <input
          id={`passkey-name-${passkey.id}`}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900"
          value={form.draft.name}
          maxLength={NAME_MAX_LENGTH}
          aria-invalid={invalid || undefined}
          onChange={(event) => form.set('name')(event.target.value)}
        />
        <Button type="submit" pending={form.pending} disabled={invalid}>
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
