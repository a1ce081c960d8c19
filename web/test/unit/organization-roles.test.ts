// An organization's roles on screen: what people read for a role, a new role's name offered from its label, the
// form's rules said as typed, a role's permissions in words, who holds a role, and what a maker may grant.
import { CUSTOM_ROLE_NAME_PATTERN, customRoleProblems, roleNameOfLabel } from '@engram/contracts/organizations';
import { afterEach, describe, expect, it } from 'vitest';
import { roleLabelOf } from '../../src/entities/organizations/role-labels.ts';
import { grantable, holdersOf } from '../../src/features/organization/roles/holders.ts';
import { permissionWords } from '../../src/features/organization/roles/permission-words.ts';
import { roleProblems } from '../../src/features/organization/roles/role-rules.ts';
import { setLocale } from '../../src/lib/i18n.ts';

const coach = {
  id: 'r1',
  role: 'coach',
  label: 'Coach',
  permission: { progress: ['read'], deck: ['create'] },
} as const;

describe('a role, as people read it', () => {
  afterEach(() => setLocale('en'));

  it('names the built-in roles in the reader’s language and a custom one by its label', () => {
    const custom = [{ role: 'coach', label: 'Coach' }];
    expect(['owner', 'admin', 'member', 'guest', 'coach'].map((role) => roleLabelOf(role, custom))).toEqual([
      'Owner',
      'Admin',
      'Member',
      'Guest',
      'Coach',
    ]);
    setLocale('pt-BR');
    expect(['owner', 'admin', 'member', 'guest', 'coach'].map((role) => roleLabelOf(role, custom))).toEqual([
      'Proprietário',
      'Administrador',
      'Membro',
      'Convidado',
      'Coach',
    ]);
  });

  it('names each of several roles held at once, and a role it does not know by its name', () => {
    expect(roleLabelOf('admin,coach', [{ role: 'coach', label: 'Coach' }])).toBe('Admin, Coach');
    expect(roleLabelOf('tutor')).toBe('tutor');
  });
});

describe('a new role’s name, offered from its label', () => {
  it('follows the label in lower case, starts with a letter and fits the name rule', () => {
    expect(roleNameOfLabel('Head Coach')).toBe('head-coach');
    expect(roleNameOfLabel('Tutor de Matemática')).toBe('tutor-de-matematica');
    expect(roleNameOfLabel('2nd reader')).toBe('nd-reader');
    expect(roleNameOfLabel('x'.repeat(40))).toBe('x'.repeat(32));
    for (const label of ['Ünïcödé Ålpha', '42 Tutors!', `a ${'b'.repeat(40)}`]) {
      expect(roleNameOfLabel(label), label).toMatch(CUSTOM_ROLE_NAME_PATTERN);
    }
    expect(roleNameOfLabel('1234')).toBe('');
  });
});

describe('a role’s form', () => {
  const draft = (label: string, name: string) => ({ label, name, named: true, permissions: {} });

  it('says what is wrong with the label and the name as the contracts check them', () => {
    expect(roleProblems(draft('Coach', 'coach'), true)).toEqual({});
    expect(roleProblems(draft('', 'coach'), true)).toEqual({ label: 'A role label must be 1 to 32 characters.' });
    expect(roleProblems(draft('x'.repeat(33), 'coach'), true).label).toBeDefined();
    expect(roleProblems(draft('Coach', 'Coach'), true).name).toMatch(/must start with a lower-case letter/);
    expect(roleProblems(draft('Member', 'member'), true)).toEqual({
      name: "Owner, admin, member and guest are the built-in roles' names.",
    });
    // A role being changed keeps its name: only the label is checked.
    expect(roleProblems(draft('Coach', 'Not A Name'), false)).toEqual({});
    expect(customRoleProblems({ role: 'coach', label: ' ' })).toEqual({ label: 'labelInvalid' });
  });
});

describe('a role’s permissions in words', () => {
  afterEach(() => setLocale('en'));

  it('lists each resource with its actions, in the contracts’ order', () => {
    expect(permissionWords(coach.permission)).toEqual(['Shared decks: Add', "Everyone's progress: See"]);
    expect(permissionWords({ member: ['create', 'delete'] })).toEqual(['Members: Add, Remove']);
    expect(permissionWords({})).toEqual([]);
    setLocale('pt-BR');
    expect(permissionWords(coach.permission)).toEqual([
      'Baralhos compartilhados: Adicionar',
      'Progresso de todos: Ver',
    ]);
  });
});

describe('who holds a role', () => {
  it('counts the members holding it, alone or among others, and the pending invitations offering it', () => {
    const holders = {
      members: [
        { userId: 'a', role: 'owner' },
        { userId: 'b', role: 'coach' },
        { userId: 'c', role: 'admin,coach' },
      ],
      invitations: [{ role: 'coach', status: 'pending', expiresAt: '2099-01-01' }],
    };
    expect(holdersOf('coach', holders)).toEqual({ members: 2, invitations: 1 });
    expect(holdersOf('tutor', holders)).toEqual({ members: 0, invitations: 0 });
  });
});

describe('what a role’s maker may grant', () => {
  it('is what their own roles hold: everything for an owner, all but deleting the organization for an admin', () => {
    expect(grantable(['owner'], []).organization).toEqual(['update', 'delete']);
    expect(grantable(['admin'], []).organization).toEqual(['update']);
    expect(grantable(['member'], [])).toEqual({});
    expect(grantable(['member', 'coach'], [coach])).toEqual({ progress: ['read'], deck: ['create'] });
  });
});
