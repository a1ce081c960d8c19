// A user's signed-in sessions in the admin area, the one active last first: the device (read from the user
// agent, as a new passkey is named), when it signed in and was last active, the address it came from, and
// whether it is an admin acting as the user. Each can be ended alone; "Sign out everywhere" ends them all.
import { useMutation } from '@tanstack/react-query';
import { Button } from '../../components/button';
import { adminAuthClient } from '../../lib/admin-client';
import { sessionDetails, sessionDevice } from '../../lib/auth-ui/session-description';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { type AdminSession, type AdminUser, adminAction, useUserSessions } from './admin-users';

function SessionRow({ session, isYours }: { session: AdminSession; isYours: boolean }) {
  // The outcome is said by the mutation's own callbacks: once the list is fetched again this row is gone, and
  // a callback given to mutate() would go with it.
  const end = useMutation({
    ...adminAction((sessionToken: string) => adminAuthClient.admin.revokeUserSession({ sessionToken })),
    onSuccess: () => {
      toast.success(m.admin_session_ended());
      // Ending one's own session signs one out: the sign-in page, with nothing of the admin's kept.
      if (isYours) window.location.assign('/auth/sign-in');
    },
    onError: toastError,
  });
  const device = sessionDevice(session);
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-slate-50 px-3 py-2 text-sm"
      aria-label={device}
    >
      <div className="min-w-0">
        <p className="font-medium text-slate-900">{device}</p>
        <p className="text-slate-600">{sessionDetails(session)}</p>
        {session.impersonatedBy && <p className="font-medium text-amber-800">{m.admin_session_impersonation()}</p>}
        {isYours && <p className="font-medium text-slate-700">{m.admin_session_yours()}</p>}
      </div>
      <Button variant="secondary" pending={end.isPending} onClick={() => end.mutate(session.token)}>
        {m.admin_session_end()}
      </Button>
    </li>
  );
}

export function UserSessions({ user, currentSessionId }: { user: AdminUser; currentSessionId: string | undefined }) {
  const { data: sessions, isPending } = useUserSessions(user.id);
  const titleId = `admin-sessions-${user.id}`;
  return (
    <section aria-labelledby={titleId} className="grid gap-2">
      <h3 id={titleId} className="text-sm font-semibold text-slate-900">
        {m.admin_sessions_title({ email: user.email })}
      </h3>
      {isPending ? (
        <p className="text-sm text-slate-600">{m.app_loading()}</p>
      ) : sessions?.length ? (
        <ul className="grid gap-2">
          {sessions.map((session) => (
            <SessionRow key={session.id} session={session} isYours={session.id === currentSessionId} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">{m.admin_sessions_none()}</p>
      )}
    </section>
  );
}
