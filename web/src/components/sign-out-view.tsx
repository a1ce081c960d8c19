// Signs the user out as soon as it mounts, clears their cached data, then hands over to the sign-in view.
import { useEffect, useRef } from 'react';
import { authClient } from '../lib/auth-client';
import { toastError } from '../lib/errors';
import { m } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { refreshSession } from '../lib/session';
import { LoadingScreen } from './status-screens';

export function SignOutView({ onSignedOut }: { onSignedOut: () => void }) {
  // Effects run twice in development's strict mode; one sign-out request is enough.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      try {
        const { error } = await authClient.signOut();
        if (error) toastError(error);
      } catch (error) {
        toastError(error);
      }
      queryClient.clear();
      await refreshSession();
      onSignedOut();
    })();
  }, [onSignedOut]);

  return <LoadingScreen label={m.auth_signing_out()} />;
}
