// One user in the admin area, with what an admin may do to them: change the role, set a password, ban
// (with a reason and an optional expiry) or unban, list their sessions and end one or all, impersonate,
// delete. The admin's own row offers none of the actions identity refuses for oneself (ban, impersonate,
// delete).
import { banReasonOf } from '@engram/contracts/auth';
import { useState } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { adminAuthClient } from '../../lib/admin-client';
import { toastError } from '../../lib/errors';
import { noProblems, useContractForm } from '../../lib/form';
import { m } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { type AdminUser, adminAction, useAdminAction } from './admin-users';
import { UserSessions } from './user-sessions';

const SECONDS_PER_DAY = 86_400;

type Panel = 'none' | 'password' | 'ban' | 'sessions';

type Ban = { userId: string; banReason?: string; banExpiresIn?: number };

/** The ban's reason if one is given, and its expiry if a number of days is (none: until unbanned). */
const banOf = (userId: string, draft: { reason: string; days: string }): Ban => {
  const expiresInDays = Number(draft.days);
  return {
    userId,
    ...(draft.reason.trim() && { banReason: draft.reason.trim() }),
    ...(expiresInDays > 0 && { banExpiresIn: expiresInDays * SECONDS_PER_DAY }),
  };
};

function BanForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const form = useContractForm({
    initial: { reason: '', days: '' },
    check: noProblems,
    input: (draft) => banOf(user.id, draft),
    mutation: adminAction((input: Ban) => adminAuthClient.admin.banUser(input)),
    saved: () => m.admin_banned({ email: user.email }),
    onSaved: onDone,
  });
  const { draft, set } = form;
  return (
    <form className="grid gap-3 sm:grid-cols-3 sm:items-end" onSubmit={form.submit}>
      <TextField label={m.admin_ban_reason()} name="banReason" value={draft.reason} onChange={set('reason')} />
      <TextField
        label={m.admin_ban_days()}
        hint={m.admin_ban_days_hint()}
        name="banDays"
        type="number"
        min={1}
        value={draft.days}
        onChange={set('days')}
      />
      <Button type="submit" pending={form.pending}>
        {m.admin_ban_confirm()}
      </Button>
    </form>
  );
}

function PasswordForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const form = useContractForm({
    initial: { password: '' },
    check: noProblems,
    input: (draft) => ({ userId: user.id, newPassword: draft.password }),
    mutation: adminAction((input: { userId: string; newPassword: string }) =>
      adminAuthClient.admin.setUserPassword(input),
    ),
    saved: () => m.admin_password_set(),
    onSaved: onDone,
  });
  return (
    <form className="grid gap-3 sm:grid-cols-3 sm:items-end" onSubmit={form.submit}>
      <TextField
        label={m.admin_new_password()}
        name="newPassword"
        type="password"
        autoComplete="new-password"
        value={form.draft.password}
        onChange={form.set('password')}
      />
      <Button type="submit" pending={form.pending}>
        {m.admin_set_password()}
      </Button>
    </form>
  );
}

export function UserRow({
  user,
  isSelf,
  currentSessionId,
}: {
  user: AdminUser;
  isSelf: boolean;
  /** The admin's own session, which the list of their own sessions marks. */
  currentSessionId: string | undefined;
}) {
  const [panel, setPanel] = useState<Panel>('none');
  const setRole = useAdminAction((input: { userId: string; role: 'user' | 'admin' }) =>
    adminAuthClient.admin.setRole(input),
  );
  const unban = useAdminAction((userId: string) => adminAuthClient.admin.unbanUser({ userId }));
  const revoke = useAdminAction((userId: string) => adminAuthClient.admin.revokeUserSessions({ userId }));
  const remove = useAdminAction((userId: string) => adminAuthClient.admin.removeUser({ userId }));
  const [impersonating, setImpersonating] = useState(false);
  // Not a query mutation: once identity answers, the browser's session is the other user's, and the page is loaded
  // afresh at once (nothing of the admin's stays in memory), so no mutation callback would run.
  const impersonate = async () => {
    setImpersonating(true);
    const { error } = await adminAuthClient.admin.impersonateUser({ userId: user.id });
    if (error) {
      setImpersonating(false);
      toastError(error);
      return;
    }
    // A fresh page load as the impersonated user: nothing of the admin's stays in memory.
    window.location.assign('/dashboard');
  };
  const toggle = (next: Panel) => setPanel(panel === next ? 'none' : next);
  const done = () => setPanel('none');
  const banReason = banReasonOf(user.banReason);

  return (
    <li className="grid gap-3 rounded-xl bg-white p-4 ring-1 ring-slate-200" aria-label={user.email}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="font-medium text-slate-900">{user.name}</p>
          <p className="text-sm text-slate-600">{user.email}</p>
          {user.banned && (
            <p className="text-sm font-medium text-red-700">
              {banReason ? m.admin_status_banned_reason({ reason: banReason }) : m.admin_status_banned()}
            </p>
          )}
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          {m.admin_role()}
          <select
            className="rounded-lg px-2 py-1.5 ring-1 ring-slate-300"
            value={user.role === 'admin' ? 'admin' : 'user'}
            disabled={isSelf || setRole.isPending}
            onChange={(event) =>
              setRole.mutate(
                { userId: user.id, role: event.target.value as 'user' | 'admin' },
                { onSuccess: () => toast.success(m.admin_role_set()), onError: toastError },
              )
            }
          >
            <option value="user">{m.admin_role_user()}</option>
            <option value="admin">{m.admin_role_admin()}</option>
          </select>
        </label>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => toggle('password')}>
          {m.admin_set_password()}
        </Button>
        {!isSelf &&
          (user.banned ? (
            <Button
              variant="secondary"
              pending={unban.isPending}
              onClick={() =>
                unban.mutate(user.id, {
                  onSuccess: () => toast.success(m.admin_unbanned({ email: user.email })),
                  onError: toastError,
                })
              }
            >
              {m.admin_unban()}
            </Button>
          ) : (
            <Button variant="secondary" onClick={() => toggle('ban')}>
              {m.admin_ban()}
            </Button>
          ))}
        <Button variant="secondary" aria-expanded={panel === 'sessions'} onClick={() => toggle('sessions')}>
          {m.admin_sessions()}
        </Button>
        <Button
          variant="secondary"
          pending={revoke.isPending}
          onClick={() =>
            revoke.mutate(user.id, { onSuccess: () => toast.success(m.admin_sessions_revoked()), onError: toastError })
          }
        >
          {m.admin_revoke_sessions()}
        </Button>
        {!isSelf && (
          <Button variant="secondary" pending={impersonating} onClick={() => void impersonate()}>
            {m.admin_impersonate()}
          </Button>
        )}
        {!isSelf && (
          <Button
            variant="ghost"
            className="text-red-700"
            pending={remove.isPending}
            onClick={() => {
              if (!window.confirm(m.admin_delete_confirm({ email: user.email }))) return;
              remove.mutate(user.id, {
                onSuccess: () => toast.success(m.admin_deleted({ email: user.email })),
                onError: toastError,
              });
            }}
          >
            {m.admin_delete()}
          </Button>
        )}
      </div>
      {panel === 'password' && <PasswordForm user={user} onDone={done} />}
      {panel === 'ban' && <BanForm user={user} onDone={done} />}
      {panel === 'sessions' && <UserSessions user={user} currentSessionId={isSelf ? currentSessionId : undefined} />}
    </li>
  );
}
