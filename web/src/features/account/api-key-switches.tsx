// Below better-auth-ui's API keys card (which creates and deletes keys): what each key may do. Its scopes (read,
// write, generate: docs/product.md#calls), which identity keeps as the key's permissions and only the server may
// set (POST /api-key/set-scopes), and its enabled flag: a disabled key is refused by the API (KEY_DISABLED) until
// switched on. It reads the library's own list (same cache), so a key created above shows here at once, with the
// scopes a new key starts with.
import { AuthUIContext } from '@daveyplate/better-auth-ui';
import { API_KEY_SCOPES, type ApiKeyScope, apiKeyScopesOf } from '@engram/contracts/auth-features';
import { useContext, useState } from 'react';
import { authClient } from '../../lib/auth-client';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { toast } from '../../lib/toast';

type ListedKey = { id: string; name: string | null; start: string | null; enabled: boolean; permissions?: unknown };

const SCOPE_LABELS: Record<ApiKeyScope, () => string> = {
  read: () => m.api_key_scope_read(),
  write: () => m.api_key_scope_write(),
  generate: () => m.api_key_scope_generate(),
};

export function ApiKeySwitches() {
  const {
    hooks: { useListApiKeys },
  } = useContext(AuthUIContext);
  const { data, refetch } = useListApiKeys();
  const keys = ((data as { apiKeys?: ListedKey[] } | undefined)?.apiKeys ?? []) as ListedKey[];
  const [busy, setBusy] = useState<string | null>(null);
  const nameOf = (key: ListedKey) => key.name ?? key.start ?? '';
  // A key's switches stay off until the list shows the change just made: a change made from the list as it was
  // before would undo it (a second scope ticked at once sent the first one back).

  const setEnabled = async (key: ListedKey, enabled: boolean) => {
    setBusy(key.id);
    try {
      const { error } = await authClient.apiKey.update({ keyId: key.id, enabled });
      if (error) return toastError(error);
      toast.success(
        enabled ? m.api_key_switched_on({ name: nameOf(key) }) : m.api_key_switched_off({ name: nameOf(key) }),
      );
      await refetch?.();
    } finally {
      setBusy(null);
    }
  };

  const setScopes = async (key: ListedKey, scopes: ApiKeyScope[]) => {
    if (scopes.length === 0) return toast.error(m.api_key_scope_last());
    setBusy(key.id);
    try {
      const { error } = await authClient.$fetch('/api-key/set-scopes', {
        method: 'POST',
        body: { keyId: key.id, scopes },
      });
      if (error) return toastError(error);
      const listed = scopes.map((scope) => SCOPE_LABELS[scope]()).join(', ');
      toast.success(m.api_key_scopes_saved({ name: nameOf(key), scopes: listed }));
      await refetch?.();
    } finally {
      setBusy(null);
    }
  };

  if (keys.length === 0) return null;
  return (
    <section aria-labelledby="api-key-switches" className="mt-6 rounded-xl bg-white p-6 ring-1 ring-slate-200">
      <h2 id="api-key-switches" className="text-lg font-semibold text-slate-900">
        {m.api_key_switches_title()}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{m.api_key_switches_text()}</p>
      <ul className="mt-4 grid gap-4">
        {keys.map((key) => {
          const scopes = apiKeyScopesOf(key.permissions ?? null);
          return (
            <li key={key.id} className="grid gap-2 text-sm sm:flex sm:flex-wrap sm:items-center sm:justify-between">
              <span className="font-medium text-slate-900">{nameOf(key)}</span>
              <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1">
                <legend className="sr-only">{m.api_key_scopes_label({ name: nameOf(key) })}</legend>
                {API_KEY_SCOPES.map((scope) => (
                  <label key={scope} className="flex items-center gap-1.5 text-slate-700">
                    <input
                      type="checkbox"
                      className="size-4 accent-brand-600"
                      checked={scopes.includes(scope)}
                      disabled={busy === key.id}
                      onChange={(event) =>
                        void setScopes(
                          key,
                          API_KEY_SCOPES.filter((each) =>
                            each === scope ? event.target.checked : scopes.includes(each),
                          ),
                        )
                      }
                    />
                    {SCOPE_LABELS[scope]()}
                  </label>
                ))}
                <label className="flex items-center gap-2 text-slate-700 sm:ml-2">
                  <input
                    type="checkbox"
                    role="switch"
                    aria-checked={key.enabled}
                    className="size-4 accent-brand-600"
                    checked={key.enabled}
                    disabled={busy === key.id}
                    aria-label={m.api_key_switch_label({ name: nameOf(key) })}
                    onChange={(event) => void setEnabled(key, event.target.checked)}
                  />
                  {key.enabled ? m.api_key_on() : m.api_key_off()}
                </label>
              </fieldset>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
