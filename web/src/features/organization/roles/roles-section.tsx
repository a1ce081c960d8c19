// The organization's roles, below its members: the built-in ones said in a sentence, each custom role with its
// label, name, permissions and who holds it, and, for those who may, a new role's form, a role's editor (its label
// and permissions; its name is what members and invitations hold, so it stays) and its deletion. A role someone
// holds, or a pending invitation offers, is not deleted: the screen says what to do first, and identity refuses
// it too (better-auth for members, Engram's rule for invitations).
import type { Permissions } from '@engram/contracts/organizations';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { rolesIn } from '../../../entities/organizations/role-labels';
import { toastError } from '../../../lib/errors';
import { m } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { type CustomRole, grantable, holdersOf } from './holders';
import { permissionWords } from './permission-words';
import { changeRoles, customRolesOptions, holdersOptions, refreshRoles, useRoleManagement } from './queries';
import { RoleEditor } from './role-editor';

type Holders = { members: number; invitations: number };

function holdersText({ members, invitations }: Holders): string[] {
  return [
    ...(members > 0 ? [members === 1 ? m.roles_held_one() : m.roles_held({ count: members })] : []),
    ...(invitations > 0 ? [invitations === 1 ? m.roles_offered_one() : m.roles_offered({ count: invitations })] : []),
  ];
}

function RoleItem({
  organizationId,
  role,
  holders,
  may,
  canGrant,
  inUse,
  onDelete,
}: {
  organizationId: string;
  role: CustomRole;
  holders: Holders | undefined;
  may: { update: boolean; delete: boolean };
  canGrant: Permissions;
  /** Deleting it was asked for while someone holds it: what to do first is said here. */
  inUse: boolean;
  onDelete: (role: CustomRole) => void;
}) {
  const [editing, setEditing] = useState(false);
  const label = role.label ?? role.role;
  const headingId = `role-${role.id}`;
  const permissions = permissionWords(role.permission);
  const held = holders ? holdersText(holders) : [];
  return (
    <li>
      <article aria-labelledby={headingId} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h4 id={headingId} className="font-semibold text-slate-900">
              {label}
            </h4>
            <p className="mt-0.5 font-mono text-xs text-slate-600">{m.roles_name_shown({ name: role.role })}</p>
            <p className="mt-2 text-sm text-slate-700">
              {permissions.length > 0 ? permissions.join(' · ') : m.roles_permissions_none()}
            </p>
            {held.length > 0 && <p className="mt-1 text-xs text-slate-600">{held.join(' · ')}</p>}
          </div>
          {!editing && (may.update || may.delete) && (
            <div className="flex flex-wrap gap-2">
              {may.update && (
                <Button variant="secondary" aria-label={m.roles_edit_named({ label })} onClick={() => setEditing(true)}>
                  {m.roles_edit()}
                </Button>
              )}
              {may.delete && (
                <Button variant="ghost" aria-label={m.roles_delete_named({ label })} onClick={() => onDelete(role)}>
                  {m.roles_delete()}
                </Button>
              )}
            </div>
          )}
        </div>
        {inUse && (
          <p role="status" className="mt-3 text-sm text-amber-800">
            {m.roles_in_use()}
          </p>
        )}
        {editing && (
          <RoleEditor
            organizationId={organizationId}
            role={role}
            canGrant={canGrant}
            onDone={() => setEditing(false)}
          />
        )}
      </article>
    </li>
  );
}

export function RolesSection({ organizationId, userId }: { organizationId: string; userId: string }) {
  const roles = useQuery(customRolesOptions(organizationId));
  const holders = useQuery(holdersOptions(organizationId));
  const may = useRoleManagement(organizationId);
  const [asked, setAsked] = useState<CustomRole | null>(null);
  const [inUse, setInUse] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (role: CustomRole) => changeRoles('/organization/delete-role', { organizationId, roleName: role.role }),
    onSuccess: async (_, role) => {
      setAsked(null);
      toast.success(m.roles_deleted({ label: role.label ?? role.role }));
      await refreshRoles(organizationId);
    },
    onError: toastError,
  });

  // Those who may not read the roles (members, guests) see them by their labels beside members, and no more.
  if (!roles.data) return null;
  const custom = roles.data;
  const own = holders.data?.members.find((member) => member.userId === userId);
  const canGrant = own ? grantable(rolesIn(own.role), custom) : {};

  /** Deleting asks first, after reading afresh who holds the role: one still held or offered is not offered. */
  const askToDelete = async (role: CustomRole) => {
    const fresh = await holders.refetch();
    const count = fresh.data ? holdersOf(role.role, fresh.data) : undefined;
    if (count && (count.members > 0 || count.invitations > 0)) {
      setInUse(role.id);
      return;
    }
    setInUse(null);
    setAsked(role);
  };

  return (
    <section aria-labelledby="roles-heading" className="mt-10">
      <h2 id="roles-heading" className="text-lg font-semibold text-slate-900">
        {m.roles_heading()}
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">{m.roles_intro()}</p>
      {custom.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">{m.roles_empty()}</p>
      ) : (
        <ul className="mt-4 space-y-3">
          {custom.map((role) => (
            <RoleItem
              key={role.id}
              organizationId={organizationId}
              role={role}
              holders={holders.data ? holdersOf(role.role, holders.data) : undefined}
              may={may}
              canGrant={canGrant}
              inUse={inUse === role.id}
              onDelete={(chosen) => void askToDelete(chosen)}
            />
          ))}
        </ul>
      )}
      {may.create && <RoleEditor organizationId={organizationId} canGrant={canGrant} />}
      <ConfirmDialog
        open={asked !== null}
        title={m.roles_delete_title({ label: asked?.label ?? asked?.role ?? '' })}
        text={m.roles_delete_text()}
        confirmLabel={m.roles_delete()}
        pending={remove.isPending}
        onConfirm={() => asked && remove.mutate(asked)}
        onCancel={() => setAsked(null)}
      />
    </section>
  );
}
