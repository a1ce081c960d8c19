// Before signing out, reviews done on this device and not yet synced are sent if the server answers; a learner with
// some still waiting is told so: they stay in this account's own queue on the device and sync first the next time
// it signs in here, never as another account. Nothing waiting (or no one signed in): the sign-out goes on at once.
// Either way the device forgets who was signed in, their offline set and their cards' pictures (the next person
// at a shared device finds none of them), before the sign-out is even asked: it forgets them offline too.
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../components/button';
import { keepOfflineDataOf } from '../../entities/offline/keep-only';
import { sendUnsyncedOfSignedIn } from '../../entities/offline/unsynced';
import { m } from '../../lib/i18n';
import { forgetLastSession } from '../../lib/session-cache';

export function UnsyncedBeforeSignOut({ onSignOut: signOut }: { onSignOut: () => void }) {
  const [waiting, setWaiting] = useState<number>();
  // Signed out, the app no longer opens offline as this learner.
  const onSignOut = useCallback(() => {
    forgetLastSession();
    void keepOfflineDataOf(null, { media: true }).then(signOut);
  }, [signOut]);
  const navigate = useNavigate();
  useEffect(() => {
    let live = true;
    void sendUnsyncedOfSignedIn().then((count) => {
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
