// "Phone number" on the account settings page, where identity can text codes (public-config's phoneNumber): the
// learner's number, verified, with a way to change or remove it; or a way to add one. Adding and changing happen in
// phone-number-editor.tsx, loaded on the first click (it brings the phone-number metadata); the number shows as
// stored until its formatting has loaded (formatted-number.tsx).
import { lazy, Suspense, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Spinner } from '../../components/spinner';
import { useFormattedPhoneNumber } from '../../entities/phone-numbers/formatted-number';
import { phoneNumberCalls } from '../../entities/phone-numbers/phone-number-calls';
import { authClient } from '../../lib/auth-client';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { refreshSession } from '../../lib/session';
import { toast } from '../../lib/toast';

const PhoneNumberEditor = lazy(() =>
  import('./phone-number-editor').then((module) => ({ default: module.PhoneNumberEditor })),
);

export function PhoneNumberCard() {
  const user = authClient.useSession().data?.user;
  const current = user?.phoneNumber && user.phoneNumberVerified ? user.phoneNumber : null;
  const place = useRef<HTMLElement>(null);
  const shown = useFormattedPhoneNumber(current, place);
  const [editing, setEditing] = useState(false);
  // Asked first; while the removal is on its way, the dialog's button spins.
  const [removing, setRemoving] = useState<'asked' | 'pending' | false>(false);

  async function remove() {
    setRemoving('pending');
    try {
      await phoneNumberCalls.remove();
    } catch (error) {
      toastError(error);
      setRemoving('asked');
      return;
    }
    await refreshSession();
    setRemoving(false);
    toast.success(m.phone_removed());
  }

  if (!user) return null;
  return (
    <section
      ref={place}
      aria-labelledby="phone-number-heading"
      className="mb-6 rounded-xl border border-slate-200 bg-white px-6 py-4 shadow-sm"
    >
      <h2 id="phone-number-heading" className="text-lg font-semibold text-slate-900">
        {m.phone_heading()}
      </h2>
      <p className="mb-4 text-sm text-slate-600">{m.phone_description()}</p>
      {editing ? (
        <Suspense fallback={<Spinner />}>
          <PhoneNumberEditor current={current} onDone={() => setEditing(false)} />
        </Suspense>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3">
          {shown ? (
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-medium text-slate-900 tabular-nums">{shown}</span>
              <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-200">
                {m.phone_verified()}
              </span>
            </p>
          ) : (
            <p className="text-sm text-slate-600">{m.phone_none()}</p>
          )}
          <div className="flex flex-wrap gap-3">
            <Button variant={shown ? 'secondary' : 'primary'} onClick={() => setEditing(true)}>
              {shown ? m.phone_change() : m.phone_add()}
            </Button>
            {shown && (
              <Button variant="ghost" onClick={() => setRemoving('asked')}>
                {m.phone_remove()}
              </Button>
            )}
          </div>
        </div>
      )}
      {shown && (
        <ConfirmDialog
          open={removing !== false}
          title={m.phone_remove_title({ number: shown })}
          text={m.phone_remove_description()}
          confirmLabel={m.phone_remove()}
          pending={removing === 'pending'}
          onConfirm={() => void remove()}
          onCancel={() => setRemoving(false)}
        />
      )}
    </section>
  );
}
