// What GetMembership and CheckPermission share: the member's roles as better-auth stores them, and the
// organization every question is about.
import { Invalid } from '@engram/kit/errors';

/** better-auth keeps several roles as one comma-separated text. */
export const rolesOf = (role: string) =>
  role
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

export function requireOrganizationId(organizationId: string): void {
  if (!organizationId) throw new Invalid('organization_id is required.');
}
