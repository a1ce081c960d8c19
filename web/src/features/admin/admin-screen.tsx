// "/admin": list and search users, create one; each user's row carries the actions (user-row.tsx).
import { useState } from 'react';
import { Button } from '../../components/button';
import { NeedsNetwork } from '../../components/needs-network';
import { TextField } from '../../components/text-field';
import { adminAuthClient } from '../../lib/admin-client';
import { authClient } from '../../lib/auth-client';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { toast } from '../../lib/toast';
import { useDebounced } from '../../lib/use-debounced';
import { useAdminAction, useAdminUsers } from './admin-users';
import { UserRow } from './user-row';

function CreateUserForm() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<'user' | 'admin'>('user');
  const create = useAdminAction((input: { name: string; email: string; password: string; role: 'user' | 'admin' }) =>
    adminAuthClient.admin.createUser(input),
  );
  const submit = () =>
    create.mutate(
      { name, email, password, role },
      {
        onSuccess: () => {
          toast.success(m.admin_user_created({ email }));
          setName('');
          setEmail('');
          setPassword('');
        },
        onError: toastError,
      },
    );
  return (
    <form
      aria-labelledby="admin-create-title"
      className="grid gap-3 rounded-xl bg-white p-5 ring-1 ring-slate-200 sm:grid-cols-5 sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h2 id="admin-create-title" className="text-base font-semibold text-slate-900 sm:col-span-5">
        {m.admin_create_title()}
      </h2>
      <TextField label={m.admin_name()} name="name" value={name} onChange={setName} />
      <TextField label={m.admin_email()} name="email" type="email" value={email} onChange={setEmail} />
      <TextField
        label={m.admin_password()}
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
      />
      <label className="grid gap-1.5 text-sm font-medium text-slate-900">
        {m.admin_role()}
        <select
          className="rounded-lg px-3 py-2.5 ring-1 ring-slate-300"
          value={role}
          onChange={(event) => setRole(event.target.value as 'user' | 'admin')}
        >
          <option value="user">{m.admin_role_user()}</option>
          <option value="admin">{m.admin_role_admin()}</option>
        </select>
      </label>
      <Button type="submit" pending={create.isPending}>
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
              <UserRow key={user.id} user={user} isSelf={user.id === session?.user.id} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">{m.admin_no_users()}</p>
        )}
      </section>
    </main>
  );
}
