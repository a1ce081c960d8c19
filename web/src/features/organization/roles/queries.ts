// An organization's roles as its screens read them from identity: the labels of its custom roles (every member
// may read them, so every member sees who holds what), the custom roles with their permissions (for those who may
// manage roles), who holds each role and which pending invitations offer it, and what the caller may do.
import { MEMBERSHIP_LIMIT } from '@engram/contracts/organizations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RoleLabel } from '../../../entities/organizations/role-labels';
import { ORGANIZATION_ROLES_KEY, organizationAuthClient } from '../../../lib/organization-client';
import { queryClient } from '../../../lib/query-client';
import type { CustomRole, Invitation, Member } from './holders';

const key = (organizationId: string, ...rest: string[]) => [...ORGANIZATION_ROLES_KEY, organizationId, ...rest];

async function get<T>(path: string, query: Record<string, string | number>): Promise<T> {
  const { data, error } = await organizationAuthClient.$fetch<T>(path, { method: 'GET', query });
  if (error) throw error;
  return data as T;
}

export const roleLabelsOptions = (organizationId: string) =>
  queryOptions({
    queryKey: key(organizationId, 'labels'),
    queryFn: () => get<RoleLabel[]>('/organization/role-labels', { organizationId }),
  });

/** The custom roles with their permissions; refused (403) to those who may not read roles. */
export const customRolesOptions = (organizationId: string) =>
  queryOptions({
    queryKey: key(organizationId, 'custom'),
    queryFn: () => get<CustomRole[]>('/organization/list-roles', { organizationId }),
    retry: false,
  });

/** Who holds which role (every member: an organization has at most MEMBERSHIP_LIMIT), and the pending offers. */
export const holdersOptions = (organizationId: string) =>
  queryOptions({
    queryKey: key(organizationId, 'holders'),
    queryFn: async () => {
      const [{ members }, invitations] = await Promise.all([
        get<{ members: Member[] }>('/organization/list-members', { organizationId, limit: MEMBERSHIP_LIMIT }),
        get<Invitation[]>('/organization/list-invitations', { organizationId }),
      ]);
      const now = Date.now();
      return {
        members,
        invitations: invitations.filter(
          (invitation) => invitation.status === 'pending' && new Date(invitation.expiresAt).getTime() > now,
        ),
      };
    },
  });

/** Whether the caller may create, change and delete roles here; identity refuses anyway, this only hides controls. */
export function useRoleManagement(organizationId: string) {
  const allowed = useQuery({
    queryKey: key(organizationId, 'may-manage'),
    queryFn: async () => {
      const may = async (action: 'create' | 'update' | 'delete') => {
        const { data } = await organizationAuthClient.organization.hasPermission({
          organizationId,
          permissions: { ac: [action] },
        });
        return data?.success ?? false;
      };
      const [create, update, remove] = await Promise.all([may('create'), may('update'), may('delete')]);
      return { create, update, delete: remove };
    },
  });
  return allowed.data ?? { create: false, update: false, delete: false };
}

/**
 * After a role is made, changed or deleted: its labels, the list and who holds what are read again (a change made
 * through the organization client does so itself, lib/organization-client.ts; this waits for it).
 */
export const refreshRoles = (organizationId: string) =>
  queryClient.invalidateQueries({ queryKey: key(organizationId) });

/** A change of roles through identity (create-role, update-role, delete-role); a refusal is thrown. */
export async function changeRoles(path: string, body: Record<string, unknown>): Promise<void> {
  const { error } = await organizationAuthClient.$fetch(path, { method: 'POST', body });
  if (error) throw error;
}
