// A role's permissions in words: each statement of the contracts (a resource and an action) by its name in the
// reader's language, in the contracts' order ("Members: Add").
import { PERMISSION_STATEMENTS, type Permissions, type Resource } from '@engram/contracts/organizations';
import { m } from '../../../lib/i18n';

/** Every statement an organization's roles can hold, in the contracts' order. */
export const STATEMENTS = Object.entries(PERMISSION_STATEMENTS) as [Resource, readonly string[]][];

const RESOURCES: Record<Resource, () => string> = {
  organization: m.roles_resource_organization,
  member: m.roles_resource_member,
  invitation: m.roles_resource_invitation,
  team: m.roles_resource_team,
  ac: m.roles_resource_ac,
  deck: m.roles_resource_deck,
  assignment: m.roles_resource_assignment,
  progress: m.roles_resource_progress,
};

const ACTIONS: Record<string, () => string> = {
  create: m.roles_action_create,
  read: m.roles_action_read,
  update: m.roles_action_update,
  delete: m.roles_action_delete,
  cancel: m.roles_action_cancel,
};

export const resourceWord = (resource: Resource) => RESOURCES[resource]();
export const actionWord = (action: string) => ACTIONS[action]?.() ?? action;

/** Whether `permissions` holds `action` on `resource`. */
export const holds = (permissions: Permissions, resource: Resource, action: string) =>
  (permissions[resource] as readonly string[] | undefined)?.includes(action) ?? false;

/** "Members: Add, Change" for each resource the permissions touch, in the contracts' order. */
export function permissionWords(permissions: Permissions): string[] {
  return STATEMENTS.flatMap(([resource, actions]) => {
    const held = actions.filter((action) => holds(permissions, resource, action));
    return held.length === 0
      ? []
      : [m.roles_permission({ resource: resourceWord(resource), action: held.map(actionWord).join(', ') })];
  });
}
