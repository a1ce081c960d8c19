// A custom role's form, its draft and its rules: the contracts' checks of label and name, in the reader's language.
import { customRoleProblems, ORGANIZATION_ROLES, type Permissions } from '@engram/contracts/organizations';
import type { FieldErrors } from '../../../lib/form';
import { m } from '../../../lib/i18n';

export interface Draft {
  label: string;
  name: string;
  /** Whether the learner typed the name: until then it follows the label. */
  named: boolean;
  permissions: Permissions;
}

export const EMPTY: Draft = { label: '', name: '', named: false, permissions: {} };

/** The form's problems: the contracts' rules for label and name, and no built-in role's name for a new one. */
export function roleProblems(draft: Draft, naming: boolean): FieldErrors<'label' | 'name'> {
  const problems = customRoleProblems({ label: draft.label, ...(naming && { role: draft.name }) });
  const builtIn = naming && (ORGANIZATION_ROLES as readonly string[]).includes(draft.name);
  return {
    ...(problems.label && { label: m.roles_label_invalid() }),
    ...(problems.role ? { name: m.roles_name_invalid() } : builtIn && { name: m.roles_name_built_in() }),
  };
}
