// The CSV preview's column mapping: the learner sets what each column holds (front, back, tags, type or
// nothing), and this turns those choices into the mapping imports.start takes and names what keeps it from
// starting. A missing front is what the contract's columnMapping refuses ("Choose a column."); with no back, the
// front column holds both sides split at a line of ---, as Mochi writes its cards; two columns set to one role
// is a problem only the per-column choice can make, so it is named here.
import { type ColumnMapping, type ColumnRole, columnMapping } from '@engram/contracts/imports';
import type { FieldErrors } from '../../lib/form';
import { getLocale, m } from '../../lib/i18n';

/** The roles a column can be given that a mapping names (ignore names none). */
export const MAPPED_ROLES = ['front', 'back', 'tags', 'type'] as const;
export type MappedRole = (typeof MAPPED_ROLES)[number];

/** Each role's name, as the column selects offer it. */
export const ROLE_NAMES: Record<ColumnRole, () => string> = {
  front: m.import_role_front,
  back: m.import_role_back,
  tags: m.import_role_tags,
  type: m.import_role_type,
  ignore: m.import_role_ignore,
};

/** The columns (by index) set to `role`. */
const columnsOf = (roles: readonly ColumnRole[], role: ColumnRole) =>
  roles.flatMap((each, index) => (each === role ? [index] : []));

/** The mapping the choices give: each role's column (-1 for a front no column holds). */
export function mappingOf(roles: readonly ColumnRole[]): ColumnMapping {
  const [back] = columnsOf(roles, 'back');
  const [tags] = columnsOf(roles, 'tags');
  const [type] = columnsOf(roles, 'type');
  return {
    front: columnsOf(roles, 'front')[0] ?? -1,
    ...(back !== undefined && { back }),
    ...(tags !== undefined && { tags }),
    ...(type !== undefined && { type }),
  };
}

/** What keeps the choices from being imported, by role: no column for the front (the contract's check), or
 * several columns set to one role (columns numbered from 1, as the table shows them). */
export function mappingProblems(roles: readonly ColumnRole[]): FieldErrors<MappedRole> {
  const problems: FieldErrors<MappedRole> = {};
  for (const issue of columnMapping.safeParse(mappingOf(roles)).error?.issues ?? []) {
    const role = issue.path[0];
    if (role === 'front') problems[role] = m.import_mapping_choose();
  }
  const list = new Intl.ListFormat(getLocale(), { type: 'conjunction' });
  for (const role of MAPPED_ROLES) {
    const columns = columnsOf(roles, role);
    if (columns.length > 1) {
      problems[role] = m.import_mapping_twice({ columns: list.format(columns.map((index) => String(index + 1))) });
    }
  }
  return problems;
}

/** Whether the front column holds both sides (no column is the back). */
export const sidesInFront = (roles: readonly ColumnRole[]) => roles.includes('front') && !roles.includes('back');
