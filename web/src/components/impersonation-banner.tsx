// Shown on every page while an admin acts as another user (impersonation): whom they are acting as, and
// the way back to their own session, which returns them to the admin area.
import { useState } from 'react';
import { adminAuthClient } from '../lib/admin-client';
import type { SessionUser } from '../lib/auth-client';
import { m } from '../lib/i18n';
import { toastErrorLater } from '../lib/toast-error-later';
import { Button } from './button';

export function ImpersonationBanner({ user }: { user: SessionUser }) {
  const [pending, setPending] = useState(false);
  const stop = async () => {
    setPending(true);
    const { error } = await adminAuthClient.admin.stopImpersonating();
    if (error) {
      setPending(false);
      toastErrorLater(error);
      return;
    }
    // A fresh page load as the admin again: nothing of the impersonated user's stays in memory.
    window.location.assign('/admin');
  };
  return (
    <div role="status" className="bg-amber-100 text-amber-950">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-6 py-2 text-sm">
        <p>{m.admin_impersonating({ name: user.name, email: user.email })}</p>
        <Button variant="secondary" pending={pending} onClick={() => void stop()}>
          {m.admin_stop_impersonating()}
        </Button>
      </div>
    </div>
  );
}
