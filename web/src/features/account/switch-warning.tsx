// Before switching to another account signed in on this device (the accounts of the account settings), reviews done
// here and not yet synced are sent if the server answers; a learner with some still waiting is asked first: the
// reviews stay in this account's own queue and sync the next time it is the account in use here; they are never
// sent as the account switched to. Nothing waiting: the switch goes on at once. Once switched, the device keeps the
// new account's offline set alone (entities/offline/keep-only.ts).
import type { AuthMutators } from '@daveyplate/better-auth-ui';
import { type ReactNode, useCallback, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { authClient } from '../../lib/auth-client';
import { m } from '../../lib/i18n';

type SetActiveSession = AuthMutators['setActiveSession'];

/** better-auth-ui's account switch, asking first while reviews wait; and the dialog that asks. */
export function useSwitchWarning(): { mutators: { setActiveSession: SetActiveSession }; dialog: ReactNode } {
  const [asking, setAsking] = useState<{ count: number; answer: (go: boolean) => void }>();
  const setActiveSession = useCallback<SetActiveSession>(async (params) => {
    // The device's queue is read only when a switch is asked for (its code stays off the account screens).
    const { sendUnsyncedOfSignedIn } = await import('../../entities/offline/unsynced');
    const count = await sendUnsyncedOfSignedIn();
    if (count > 0 && !(await new Promise<boolean>((answer) => setAsking({ count, answer })))) return;
    await authClient.multiSession.setActive({ ...params, fetchOptions: { throw: true } });
  }, []);
  const close = (go: boolean) => {
    asking?.answer(go);
    setAsking(undefined);
  };
  const dialog = (
    <ConfirmDialog
      open={asking !== undefined}
      title={m.offline_sign_out_title()}
      text={m.offline_switch_text({ count: asking?.count ?? 0 })}
      confirmLabel={m.offline_switch_anyway()}
      onConfirm={() => close(true)}
      onCancel={() => close(false)}
    />
  );
  return { mutators: { setActiveSession }, dialog };
}
