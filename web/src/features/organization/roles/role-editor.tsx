// A custom role's form: a new one (label, its name offered from the label until edited, permissions) or one being
// changed (its label and permissions). The contracts' rules are said as the learner types; permissions the
// learner's own role lacks cannot be given (better-auth refuses them) and are shown disabled.
import {
  CUSTOM_ROLE_LABEL_MAX_LENGTH,
  type Permissions,
  type Resource,
  roleNameOfLabel,
} from '@engram/contracts/organizations';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { useContractForm } from '../../../lib/form';
import { m } from '../../../lib/i18n';
import type { CustomRole } from './holders';
import { actionWord, holds, resourceWord, STATEMENTS } from './permission-words';
import { changeRoles, refreshRoles } from './queries';
import { type Draft, EMPTY, roleProblems } from './role-rules';

/** The permissions with `action` on `resource` given or taken away. */
function toggled(permissions: Permissions, resource: Resource, action: string, on: boolean): Permissions {
  const actions = new Set<string>(permissions[resource] ?? []);
  if (on) actions.add(action);
  else actions.delete(action);
  const next: Record<string, string[]> = { ...(permissions as Record<string, string[]>) };
  if (actions.size === 0) delete next[resource];
  else next[resource] = STATEMENTS.find(([name]) => name === resource)?.[1].filter((a) => actions.has(a)) ?? [];
  return next as Permissions;
}

export function RoleEditor({
  organizationId,
  role,
  canGrant,
  onDone,
}: {
  organizationId: string;
  /** The role being changed; none for a new one. */
  role?: CustomRole;
  /** What the learner's own role may give. */
  canGrant: Permissions;
  onDone?: () => void;
}) {
  const naming = role === undefined;
  const form = useContractForm({
    initial: (): Draft =>
      role ? { label: role.label ?? role.role, name: role.role, named: true, permissions: role.permission } : EMPTY,
    check: (draft: Draft) => roleProblems(draft, naming),
    eager: ['label', 'name'],
    input: (draft: Draft) => draft,
    mutation: {
      mutationFn: (draft: Draft) =>
        role
          ? changeRoles('/organization/update-role', {
              organizationId,
              roleName: role.role,
              data: { permission: draft.permissions, label: draft.label.trim() },
            })
          : changeRoles('/organization/create-role', {
              organizationId,
              role: draft.name,
              permission: draft.permissions,
              additionalFields: { label: draft.label.trim() },
            }),
    },
    saved: (_, draft) =>
      role ? m.roles_saved({ label: draft.label.trim() }) : m.roles_created({ label: draft.label.trim() }),
    ...(naming && { reset: () => EMPTY }),
    onSaved: () => onDone?.(),
    invalidate: () => refreshRoles(organizationId),
  });
  const { draft, errors, setDraft } = form;
  const headingId = role ? `edit-role-${role.id}` : 'new-role-heading';

  return (
    <form
      aria-labelledby={headingId}
      onSubmit={form.submit}
      noValidate
      className={`space-y-4 ${role ? 'mt-4 border-t border-slate-200 pt-4' : 'mt-6 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200'}`}
    >
      <h3 id={headingId} className="font-semibold text-slate-900">
        {role ? m.roles_edit_named({ label: role.label ?? role.role }) : m.roles_new_heading()}
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={m.roles_label()}
          name="label"
          value={draft.label}
          maxLength={CUSTOM_ROLE_LABEL_MAX_LENGTH}
          onChange={(label) =>
            setDraft((current) => ({ ...current, label, ...(!current.named && { name: roleNameOfLabel(label) }) }))
          }
          error={errors.label}
        />
        {naming && (
          <TextField
            label={m.roles_name()}
            name="name"
            value={draft.name}
            maxLength={32}
            hint={m.roles_name_hint()}
            onChange={(name) => setDraft((current) => ({ ...current, name, named: name !== '' }))}
            error={errors.name}
          />
        )}
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">{m.roles_permissions()}</legend>
        <p className="mt-1 text-xs text-slate-600">{m.roles_permissions_hint()}</p>
        <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {STATEMENTS.map(([resource, actions]) => (
            <fieldset key={resource} className="rounded-lg p-3 ring-1 ring-slate-200">
              <legend className="px-1 text-sm font-medium text-slate-800">{resourceWord(resource)}</legend>
              <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                {actions.map((action) => {
                  const checked = holds(draft.permissions, resource, action);
                  return (
                    <label key={action} className="flex items-center gap-2 text-sm text-slate-700">
                      <input
                        type="checkbox"
                        className="size-4 accent-brand-600"
                        checked={checked}
                        disabled={!checked && !holds(canGrant, resource, action)}
                        onChange={(event) =>
                          setDraft((current) => ({
                            ...current,
                            permissions: toggled(current.permissions, resource, action, event.target.checked),
                          }))
                        }
                      />
                      {actionWord(action)}
                    </label>
                  );
                })}
              </div>
            </fieldset>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={form.pending}>
          {role ? m.roles_save() : m.roles_create()}
        </Button>
        {role && (
          <Button variant="secondary" onClick={onDone}>
            {m.confirm_cancel()}
          </Button>
        )}
      </div>
    </form>
  );
}
