// The settings' last section: how many days of cards this device keeps for practice without the network (its own
// choice, entities/offline/horizon.ts), how many it keeps now, and whether that is every card due by then. A new
// choice takes effect at once: the device takes a set for it (online; offline, at the next sync).
import { OFFLINE_MAX_ITEMS } from '@engram/contracts/offline';
import { useState } from 'react';
import { SelectField } from '../../components/select-field';
import { deviceOf } from '../../entities/offline/device';
import { HORIZON_CHOICES, horizonDays, setHorizonDays } from '../../entities/offline/horizon';
import { useDeviceStatus } from '../../entities/offline/sync-status';
import { m } from '../../lib/i18n';

export function OfflineSection({ userId }: { userId: string }) {
  const status = useDeviceStatus(userId);
  const [days, setDays] = useState(horizonDays);
  const [taking, setTaking] = useState(false);
  const choose = async (value: string) => {
    const chosen = Number(value);
    setDays(chosen);
    setHorizonDays(chosen);
    setTaking(true);
    try {
      await (await deviceOf(userId)).sync();
    } finally {
      setTaking(false);
    }
  };
  const choices = [...new Set([...HORIZON_CHOICES, days])].sort((a, b) => a - b);
  return (
    <section className="space-y-4 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">{m.settings_offline_heading()}</h2>
        <p className="mt-1 text-sm text-slate-500">{m.settings_offline_text()}</p>
      </div>
      <div className="max-w-xs">
        <SelectField
          label={m.settings_offline_days()}
          name="offline-days"
          value={String(days)}
          onChange={(value) => void choose(value)}
          disabled={taking}
        >
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {m.settings_offline_days_option({ days: choice })}
            </option>
          ))}
        </SelectField>
      </div>
      {status.kept && !taking && (
        <p role="status" className="text-sm text-slate-600">
          {m.settings_offline_kept({ count: status.kept.items })}
          {!status.kept.complete && ` ${m.settings_offline_incomplete({ count: OFFLINE_MAX_ITEMS })}`}
        </p>
      )}
    </section>
  );
}
