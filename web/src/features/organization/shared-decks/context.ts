// What every section of the shared decks view needs to know: the organization, who is looking, the names
// of its teams and members (from identity), and which controls to show them.

export interface SharedDecksContext {
  organizationId: string;
  userId: string;
  /** Team names by id. */
  teams: Map<string, string>;
  /** Member names by user id. */
  members: Map<string, string>;
  managesDecks: boolean;
  managesAssignments: boolean;
}

interface FullOrganization {
  members: { userId: string; user: { name: string; email: string } }[];
  teams?: { id: string; name: string }[] | null;
}

export const teamNames = (organization: FullOrganization | null | undefined) =>
  new Map((organization?.teams ?? []).map((team) => [team.id, team.name]));

export const memberNames = (organization: FullOrganization | null | undefined) =>
  new Map((organization?.members ?? []).map((member) => [member.userId, member.user.name.trim() || member.user.email]));
