// Before signing out, a learner with reviews done on this device and not yet synced is told so: they stay in this
// account's own queue on the device and sync the next time it signs in here, never as another account. Nothing
// waiting (or no one signed in): the sign-out goes on at once. Either way the device forgets who was signed in.
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../components/button';
import { unsyncedOfSignedIn } from '../../entities/offline/unsynced';
import { m } from '../../lib/i18n';
import { forgetLastSession } from '../../lib/session-cache';

export function UnsyncedBeforeSignOut({ onSignOut: signOut }: { onSignOut: () => void }) {
  const [waiting, setWaiting] = useState<number>();
  // Signed out, the app no longer opens offline as this learner.
  const onSignOut = useCallback(() => {
    forgetLastSession();
    signOut();
  }, [signOut]);
  const navigate = useNavigate();
  useEffect(() => {
    let live = true;
    void unsyncedOfSignedIn().then((count) => {
      if (!live) return;
      if (count === 0) onSignOut();
      else setWaiting(count);
    });
    return () => {
      live = false;
    };
  }, [onSignOut]);
  if (waiting === undefined) return null;
  return (
    <section
      aria-labelledby="unsynced-title"
      className="w-full max-w-sm rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="unsynced-title" className="text-lg font-semibold text-slate-900">
        {m.offline_sign_out_title()}
      </h2>
      <p className="mt-2 text-sm text-slate-600">{m.offline_sign_out_text({ count: waiting })}</p>
      <div className="mt-6 flex flex-wrap gap-3">
        <Button onClick={() => void navigate({ to: '/practice/new' })}>{m.offline_sign_out_stay()}</Button>
        <Button variant="secondary" onClick={onSignOut}>
          {m.offline_sign_out_anyway()}
        </Button>
      </div>
    </section>
  );
}
