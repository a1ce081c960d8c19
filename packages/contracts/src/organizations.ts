// Organizations (docs/product.md#roles-and-permissions): the roles, what each may do, and the limits identity
// enforces and the web app's forms and the organizations service read. Permissions are better-auth's access-control
// statements: a resource and the actions on it. better-auth's own (organization, member, invitation, team, ac) come
// first; deck, assignment and progress are Engram's shared-decks resources.

import { ORGANIZATION_SLUG_MAX_LENGTH } from './auth.ts';

/** The built-in roles. Custom roles (per organization, with a label) add to these. */
export const ORGANIZATION_ROLES = ['owner', 'admin', 'member', 'guest'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];
/** Who creates an organization becomes its owner; an organization always keeps one. */
export const CREATOR_ROLE: OrganizationRole = 'owner';

export const PERMISSION_STATEMENTS = {
  organization: ['update', 'delete'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  ac: ['create', 'read', 'update', 'delete'],
  /** Publishing a tag's cards as a deck for the organization or a team, and changing or withdrawing it. */
  deck: ['create', 'update', 'delete'],
  /** Assigning a deck to a team or the whole organization with a due date and a target. */
  assignment: ['create', 'update', 'delete'],
  /** Reading every member's progress (everyone reads their own). */
  progress: ['read'],
} as const;

export type PermissionStatements = typeof PERMISSION_STATEMENTS;
export type Resource = keyof PermissionStatements;
/** A permission request: for each resource, the actions asked for. */
export type Permissions = { [R in Resource]?: readonly PermissionStatements[R][number][] };

/** Owners may do everything; admins everything but deleting the organization. */
export const ROLE_PERMISSIONS: Record<OrganizationRole, Permissions> = {
  owner: PERMISSION_STATEMENTS,
  admin: { ...PERMISSION_STATEMENTS, organization: ['update'] },
  // Members and guests learn: they subscribe to decks and see their own assignments and progress.
  member: {},
  guest: {},
};

/** How long an invitation stays acceptable (better-auth's default, 48 hours). */
export const INVITATION_EXPIRES_IN_SECONDS = 48 * 3600;
/** How many organizations one user may create, members one may have, teams and pending invitations. */
export const ORGANIZATION_LIMIT = 20;
export const MEMBERSHIP_LIMIT = 500;
export const TEAM_LIMIT = 50;
export const INVITATION_LIMIT = 200;
/** Slugs: lower-case letters, digits and single hyphens (they appear in URLs in slug mode). */
export const ORGANIZATION_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The slug a new organization is offered from its name: lower case, accents stripped, every run of other
 * characters one hyphen, at most ORGANIZATION_SLUG_MAX_LENGTH long. It fits ORGANIZATION_SLUG_PATTERN, or is
 * empty when the name has no letter or digit to keep.
 */
export function slugOfName(name: string): string {
  const hyphenated = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  const trimEdges = (text: string) => text.replace(/^-+|-+$/g, '');
  return trimEdges(trimEdges(hyphenated).slice(0, ORGANIZATION_SLUG_MAX_LENGTH));
}
/** A custom role's name (its key) and label. */
export const CUSTOM_ROLE_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;
export const CUSTOM_ROLE_NAME_MESSAGE =
  'A role name must start with a lower-case letter and hold at most 32 lower-case letters, digits or hyphens.';
export const CUSTOM_ROLE_LABEL_MAX_LENGTH = 32;
export const CUSTOM_ROLE_LABEL_MESSAGE = `A role label must be 1 to ${CUSTOM_ROLE_LABEL_MAX_LENGTH} characters.`;
/** A custom role held by a pending invitation: deleting it would leave the invitation naming no role. */
export const ROLE_OFFERED_MESSAGE =
  'Cannot delete a role offered in a pending invitation. Cancel the invitation or change its role first.';

/** The codes identity refuses a custom role with, beside those messages; the web app's catalogue translates them. */
export const CUSTOM_ROLE_ERROR_CODES = {
  nameInvalid: 'ROLE_NAME_INVALID',
  labelInvalid: 'ROLE_LABEL_INVALID',
  offered: 'ROLE_IS_OFFERED_IN_INVITATIONS',
} as const;

/** What is wrong with a custom role's name or label, field by field (an absent one is not checked). */
export function customRoleProblems(fields: { role?: unknown; label?: unknown }): {
  role?: 'nameInvalid';
  label?: 'labelInvalid';
} {
  const { role, label } = fields;
  return {
    ...(role !== undefined &&
      (typeof role !== 'string' || !CUSTOM_ROLE_NAME_PATTERN.test(role)) && {
        role: 'nameInvalid' as const,
      }),
    ...(label !== undefined &&
      (typeof label !== 'string' || label.trim() === '' || label.length > CUSTOM_ROLE_LABEL_MAX_LENGTH) && {
        label: 'labelInvalid' as const,
      }),
  };
}

/**
 * The name a new custom role is offered from its label: slugOfName's rules, at most 32 characters, starting with
 * a letter (digits in front are dropped). Empty when the label holds no letter to start with.
 */
export function roleNameOfLabel(label: string): string {
  return slugOfName(label)
    .replace(/^[^a-z]+/, '')
    .slice(0, 32)
    .replace(/-+$/, '');
}

/** The organization messages (docs/product.md#validation-rules). */
export const ORGANIZATION_MESSAGES = {
  slugRequired: 'Organization slug is required.',
  slugMismatch: 'The slug does not match.',
  nameTooLong: 'Organization name must be at most 32 characters.',
  slugTooLong: 'Organization slug must be at most 48 characters.',
  slugInvalid: 'Organization slug may hold only lower-case letters, digits and hyphens.',
} as const;

/** The codes identity refuses a name or slug with, beside those messages; the web app's catalogue translates them. */
export const ORGANIZATION_ERROR_CODES = {
  slugRequired: 'ORGANIZATION_SLUG_REQUIRED',
  nameTooLong: 'ORGANIZATION_NAME_TOO_LONG',
  slugTooLong: 'ORGANIZATION_SLUG_TOO_LONG',
  slugInvalid: 'ORGANIZATION_SLUG_INVALID',
} as const;
