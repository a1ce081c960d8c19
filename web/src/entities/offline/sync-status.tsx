// What the signed-in learner's device says of itself (device.ts), for the practice and dashboard screens: one line on
// how many reviews done here wait to sync and when the last sync was; offline, also what is due today and what was
// done here today (nothing while every review is synced and the network is there). The dashboard's panels read the
// progress and streak the device works out offline through useDeviceStatus.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { m } from '../../lib/i18n';
import { useOnline } from '../../lib/online';
import { type Device, deviceOf, NO_STATUS, type SyncStatus as Status } from './device';

const NONE = () => NO_STATUS;
const idle = () => () => {};

/** The device of `userId` as it stands, updated as it changes. */
export function useDeviceStatus(userId: string): Status {
  const [device, setDevice] = useState<Device>();
  useEffect(() => {
    let live = true;
    void deviceOf(userId).then((opened) => live && setDevice(opened));
    return () => {
      live = false;
    };
  }, [userId]);
  return useSyncExternalStore(device?.subscribe ?? idle, device?.snapshot ?? NONE);
}

export function SyncStatus({ status }: { status: Status }) {
  const online = useOnline();
  if (online && status.waiting === 0) return null;
  const last = status.lastSyncAt
    ? new Date(status.lastSyncAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : null;
  return (
    <p role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
      {online ? '' : `${m.offline_notice()} ${m.offline_today({ due: status.dueToday, done: status.doneToday })} `}
      {status.waiting > 0 && m.offline_waiting({ count: status.waiting })}
      {last && ` ${m.offline_last_sync({ time: last })}`}
    </p>
  );
}
