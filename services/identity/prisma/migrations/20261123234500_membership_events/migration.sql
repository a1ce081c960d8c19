-- Membership events from better-auth's organization tables, like the user events (migration user_events,
-- whose pb_* encoders and enqueue_user_event these reuse): a trigger on members, team members and
-- organizations puts MemberAdded, MemberRemoved, MemberRoleChanged, TeamMemberAdded, TeamMemberRemoved
-- and OrganizationDeleted (proto/engram/events/v1/identity.proto) into the outbox in the transaction of
-- the change, whoever made it. test/organizations.test.ts decodes the rows with the generated codecs.
-- Deleting an organization cascades to its members and teams first; their row triggers fire before the
-- organization's own, so consumers see each MemberRemoved before OrganizationDeleted.

-- engram.identity.member.added: MemberAdded {organization_id, user_id, member_id, role}
CREATE FUNCTION "members_added"() RETURNS TRIGGER
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM enqueue_user_event('engram.identity.member.added',
    pb_string_field(1, NEW.organization_id)
      || pb_string_field(2, NEW.user_id)
      || pb_string_field(3, NEW.id)
      || pb_string_field(4, NEW.role));
  RETURN NULL;
END $$;

-- engram.identity.member.removed: MemberRemoved {organization_id, user_id, member_id}
CREATE FUNCTION "members_removed"() RETURNS TRIGGER
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM enqueue_user_event('engram.identity.member.removed',
    pb_string_field(1, OLD.organization_id)
      || pb_string_field(2, OLD.user_id)
      || pb_string_field(3, OLD.id));
  RETURN NULL;
END $$;

-- engram.identity.member.role-changed: MemberRoleChanged {organization_id, user_id, member_id, role, previous_role}
CREATE FUNCTION "members_role_changed"() RETURNS TRIGGER
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM enqueue_user_event('engram.identity.member.role-changed',
    pb_string_field(1, NEW.organization_id)
      || pb_string_field(2, NEW.user_id)
      || pb_string_field(3, NEW.id)
      || pb_string_field(4, NEW.role)
      || pb_string_field(5, OLD.role));
  RETURN NULL;
END $$;

-- engram.identity.organization.deleted: OrganizationDeleted {organization_id}
CREATE FUNCTION "organizations_deleted"() RETURNS TRIGGER
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM enqueue_user_event('engram.identity.organization.deleted', pb_string_field(1, OLD.id));
  RETURN NULL;
END $$;

-- engram.identity.team-member.added / removed: {team_id, user_id, organization_id}; the organization is
-- looked up, and is empty when the team went in the same statement (its organization's deletion).
CREATE FUNCTION "team_members_changed"() RETURNS TRIGGER
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  row_of RECORD;
  organization TEXT;
BEGIN
  IF TG_OP = 'INSERT' THEN row_of := NEW; ELSE row_of := OLD; END IF;
  SELECT organization_id INTO organization FROM teams WHERE id = row_of.team_id;
  PERFORM enqueue_user_event(
    CASE WHEN TG_OP = 'INSERT' THEN 'engram.identity.team-member.added' ELSE 'engram.identity.team-member.removed' END,
    pb_string_field(1, row_of.team_id)
      || pb_string_field(2, row_of.user_id)
      || pb_string_field(3, organization));
  RETURN NULL;
END $$;

CREATE TRIGGER "members_added" AFTER INSERT ON "members"
FOR EACH ROW EXECUTE FUNCTION "members_added"();

CREATE TRIGGER "members_removed" AFTER DELETE ON "members"
FOR EACH ROW EXECUTE FUNCTION "members_removed"();

CREATE TRIGGER "members_role_changed" AFTER UPDATE ON "members"
FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role)
EXECUTE FUNCTION "members_role_changed"();

CREATE TRIGGER "organizations_deleted" AFTER DELETE ON "organizations"
FOR EACH ROW EXECUTE FUNCTION "organizations_deleted"();

CREATE TRIGGER "team_members_added" AFTER INSERT ON "team_members"
FOR EACH ROW EXECUTE FUNCTION "team_members_changed"();

CREATE TRIGGER "team_members_removed" AFTER DELETE ON "team_members"
FOR EACH ROW EXECUTE FUNCTION "team_members_changed"();
