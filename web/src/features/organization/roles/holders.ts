// Who holds an organization's roles and what a role's maker may grant, worked out from what identity lists.
import { type Permissions, ROLE_PERMISSIONS } from '@engram/contracts/organizations';
import { rolesIn } from '../../../entities/organizations/role-labels';

/** A custom role with its permissions, as better-auth's list-roles answers. */
export interface CustomRole {
  id: string;
  role: string;
  label: string | null;
  permission: Permissions;
}

export interface Member {
  userId: string;
  role: string;
}

export interface Invitation {
  role: string;
  status: string;
  expiresAt: string | Date;
}

/** How many members hold `role`, and how many pending invitations offer it. */
export function holdersOf(role: string, holders: { members: Member[]; invitations: Invitation[] }) {
  return {
    members: holders.members.filter((member) => rolesIn(member.role).includes(role)).length,
    invitations: holders.invitations.filter((invitation) => rolesIn(invitation.role).includes(role)).length,
  };
}

/**
 * What a holder of these roles may grant: a role is made only of permissions its maker has (better-auth refuses
 * the rest), the built-in roles' from the contracts, a custom role's from its statements.
 */
export function grantable(roles: string[], custom: readonly CustomRole[]): Permissions {
  const granted: Record<string, Set<string>> = {};
  for (const role of roles) {
    const statements =
      (ROLE_PERMISSIONS as Record<string, Permissions>)[role] ?? custom.find((r) => r.role === role)?.permission ?? {};
    for (const [resource, actions] of Object.entries(statements)) {
      granted[resource] ??= new Set();
      for (const action of actions ?? []) granted[resource].add(action);
    }
  }
  return Object.fromEntries(Object.entries(granted).map(([resource, actions]) => [resource, [...actions]]));
}
