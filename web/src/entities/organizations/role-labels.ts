// What people read for an organization role: the built-in roles by their names in the reader's language, a custom
// role by the label its organization gave it (identity's role-labels and invitations carry it), and a role
// given several at once ("admin,coach", as better-auth keeps them) by each of its labels.
import { m } from '../../lib/i18n';

/** A custom role of an organization, as identity lists it for every member. */
export interface RoleLabel {
  role: string;
  label: string;
}

const BUILT_IN: Record<string, () => string> = {
  owner: m.authui_owner,
  admin: m.authui_admin,
  member: m.authui_member,
  guest: m.authui_guest,
};

/** The built-in roles better-auth-ui's screens do not name themselves (it knows owner, admin and member). */
export const guestRole = (): RoleLabel => ({ role: 'guest', label: m.authui_guest() });

/** The roles a member or an invitation holds: better-auth keeps several as "admin,coach". */
export const rolesIn = (role: string) =>
  role
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

/** The label of `role` (or of each of several, comma-separated), given the organization's custom roles. */
export function roleLabelOf(role: string, custom: readonly RoleLabel[] = []): string {
  const labels = new Map(custom.map((entry) => [entry.role, entry.label]));
  return rolesIn(role)
    .map((name) => BUILT_IN[name]?.() ?? labels.get(name) ?? name)
    .join(', ');
}
