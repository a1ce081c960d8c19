// "/admin": list and search users, create one; each user's row carries the actions (user-row.tsx).
import { useState } from 'react';
import { Button } from '../../components/button';
import { NeedsNetwork } from '../../components/needs-network';
import { TextField } from '../../components/text-field';
import { adminAuthClient } from '../../lib/admin-client';
import { authClient } from '../../lib/auth-client';
import { noProblems, useContractForm } from '../../lib/form';
import { m } from '../../lib/i18n';
import { useDebounced } from '../../lib/use-debounced';
import { adminAction, useAdminUsers } from './admin-users';
import { UserRow } from './user-row';

type Role = 'user' | 'admin';

const EMPTY = { name: '', email: '', password: '', role: 'user' as Role };

/** A new account, checked by identity (the browser checks only that the email looks like an address); the role
 * chosen stays for the next one. */
function CreateUserForm() {
  const form = useContractForm({
    initial: EMPTY,
    check: noProblems,
    input: (draft) => draft,
    mutation: adminAction((input: typeof EMPTY) => adminAuthClient.admin.createUser(input)),
    saved: (_, input) => m.admin_user_created({ email: input.email }),
    reset: (draft) => ({ ...EMPTY, role: draft.role }),
  });
  const { draft, set } = form;
  return (
    <form
      aria-labelledby="admin-create-title"
      className="grid gap-3 rounded-xl bg-white p-5 ring-1 ring-slate-200 sm:grid-cols-5 sm:items-end"
      onSubmit={form.submit}
    >
      <h2 id="admin-create-title" className="text-base font-semibold text-slate-900 sm:col-span-5">
        {m.admin_create_title()}
      </h2>
      <TextField label={m.admin_name()} name="name" value={draft.name} onChange={set('name')} />
      <TextField label={m.admin_email()} name="email" type="email" value={draft.email} onChange={set('email')} />
      <TextField
        label={m.admin_password()}
        name="password"
        type="password"
        autoComplete="new-password"
        value={draft.password}
        onChange={set('password')}
      />
      <label className="grid gap-1.5 text-sm font-medium text-slate-900">
        {m.admin_role()}
        <select
          className="rounded-lg px-3 py-2.5 ring-1 ring-slate-300"
          value={draft.role}
          onChange={(event) => set('role')(event.target.value as Role)}
        >
          <option value="user">{m.admin_role_user()}</option>
          <option value="admin">{m.admin_role_admin()}</option>
        </select>
      </label>
      <Button type="submit" pending={form.pending}>
        {m.admin_create()}
      </Button>
    </form>
  );
}

export function AdminScreen() {
  const [search, setSearch] = useState('');
  const debounced = useDebounced(search.trim(), 300);
  const { data, isPending } = useAdminUsers(debounced);
  const { data: session } = authClient.useSession();
  return (
    <main className="mx-auto grid w-full max-w-5xl gap-6 px-6 py-10">
      <NeedsNetwork />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.admin_title()}</h1>
      <CreateUserForm />
      <section aria-labelledby="admin-users-title" className="grid gap-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="admin-users-title" className="text-base font-semibold text-slate-900">
            {m.admin_users_title({ count: data?.total ?? 0 })}
          </h2>
          <div className="w-72">
            <TextField label={m.admin_search()} name="search" type="search" value={search} onChange={setSearch} />
          </div>
        </div>
        {isPending ? (
          <p className="text-sm text-slate-600">{m.app_loading()}</p>
        ) : data?.users.length ? (
          <ul className="grid gap-3">
            {data.users.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                isSelf={user.id === session?.user.id}
                currentSessionId={session?.session.id}
              />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">{m.admin_no_users()}</p>
        )}
      </section>
    </main>
  );
}
