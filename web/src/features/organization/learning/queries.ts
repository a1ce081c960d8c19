// The learning view's loads: the organization's decks, its assignments and its members' progress (started
// together by the route's loader), and the organization itself with its members and teams, and what the
// caller may do there, from identity through the organization client.
import { useQuery } from '@tanstack/react-query';
import { organizationAuthClient } from '../../../lib/organization-client';
import { trpc } from '../../../lib/trpc';

export const decksOptions = (organizationId: string) => trpc.orgs.decks.queryOptions({ organizationId });
export const organizationAssignmentsOptions = (organizationId: string) =>
  trpc.orgs.assignments.queryOptions({ organizationId });
export const progressOptions = (organizationId: string, assignmentId?: string) =>
  trpc.orgs.progress.queryOptions({ organizationId, ...(assignmentId && { assignmentId }) });

/** The organization with its members (their names and emails) and teams. */
export function useFullOrganization(organizationId: string) {
  return useQuery({
    queryKey: ['auth', 'full-organization', organizationId],
    queryFn: async () => {
      const { data, error } = await organizationAuthClient.organization.getFullOrganization({
        query: { organizationId },
      });
      if (error) throw error;
      return data;
    },
  });
}

/** Whether the caller may do `action` to `resource` here; the service refuses anyway, this only hides controls. */
export function usePermission(organizationId: string, resource: 'deck' | 'assignment', action: 'create' | 'delete') {
  const permission = useQuery({
    queryKey: ['auth', 'permission', organizationId, resource, action],
    queryFn: async () => {
      const { data, error } = await organizationAuthClient.organization.hasPermission({
        organizationId,
        permissions: { [resource]: [action] },
      });
      if (error) throw error;
      return data?.success ?? false;
    },
  });
  return permission.data ?? false;
}
