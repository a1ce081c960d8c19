// Below better-auth-ui's API keys card (which creates and deletes keys): each key's enabled flag
// (docs/product.md#entities), switched off and on by its owner. A disabled key is refused by the API (KEY_DISABLED)
// until switched on. It reads the library's own list (same cache), so a key created above shows here at once.
import { AuthUIContext } from '@daveyplate/better-auth-ui';
import { useContext, useState } from 'react';
import { authClient } from '../../lib/auth-client';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { toast } from '../../lib/toast';

type ListedKey = { id: string; name: string | null; start: string | null; enabled: boolean };

export function ApiKeySwitches() {
  const {
    hooks: { useListApiKeys },
  } = useContext(AuthUIContext);
  const { data, refetch } = useListApiKeys();
  const keys = ((data as { apiKeys?: ListedKey[] } | undefined)?.apiKeys ?? []) as ListedKey[];
  const [busy, setBusy] = useState<string | null>(null);

  const setEnabled = async (key: ListedKey, enabled: boolean) => {
    setBusy(key.id);
    const { error } = await authClient.apiKey.update({ keyId: key.id, enabled });
    setBusy(null);
    if (error) return toastError(error);
    const name = key.name ?? key.start ?? '';
    toast.success(enabled ? m.api_key_switched_on({ name }) : m.api_key_switched_off({ name }));
    await refetch?.();
  };

  if (keys.length === 0) return null;
  return (
    <section aria-labelledby="api-key-switches" className="mt-6 rounded-xl bg-white p-6 ring-1 ring-slate-200">
      <h2 id="api-key-switches" className="text-lg font-semibold text-slate-900">
        {m.api_key_switches_title()}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{m.api_key_switches_text()}</p>
      <ul className="mt-4 grid gap-2">
        {keys.map((key) => (
          <li key={key.id} className="flex items-center justify-between gap-3 text-sm">
            <span className="font-medium text-slate-900">{key.name ?? key.start}</span>
            <label className="flex items-center gap-2 text-slate-700">
              <input
                type="checkbox"
                role="switch"
                aria-checked={key.enabled}
                className="size-4 accent-brand-600"
                checked={key.enabled}
                disabled={busy === key.id}
                aria-label={m.api_key_switch_label({ name: key.name ?? key.start ?? '' })}
                onChange={(event) => void setEnabled(key, event.target.checked)}
              />
              {key.enabled ? m.api_key_on() : m.api_key_off()}
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}
