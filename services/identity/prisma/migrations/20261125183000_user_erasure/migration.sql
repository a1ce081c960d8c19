-- A deleted account leaves nothing of the person in identity, and the user events carry ids, not
-- personal data.
--
-- UserCreated and UserUpdated no longer carry the address, name, picture or username: the stream keeps
-- events for EVENTS_STREAM_MAX_AGE_HOURS and cannot forget one user's messages (their subjects name no
-- user), and no service needs those fields from an event. UserUpdated is written only when what it still
-- carries changes (role, verification, ban).
CREATE OR REPLACE FUNCTION "users_created"() RETURNS TRIGGER
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM enqueue_user_event('engram.identity.user.created',
    pb_string_field(1, NEW.id)
      || pb_string_field(6, NEW.role)
      || pb_bool_field(7, NEW.email_verified)
      || pb_timestamp_field(8, NEW.created_at));
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "users_updated"() RETURNS TRIGGER
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM enqueue_user_event('engram.identity.user.updated',
    pb_string_field(1, NEW.id)
      || pb_string_field(6, NEW.role)
      || pb_bool_field(7, NEW.email_verified)
      || pb_bool_field(8, NEW.banned));
  RETURN NULL;
END $$;

DROP TRIGGER "users_updated" ON "users";
CREATE TRIGGER "users_updated" AFTER UPDATE ON "users"
FOR EACH ROW
WHEN ((OLD.role, OLD.email_verified, OLD.banned) IS DISTINCT FROM (NEW.role, NEW.email_verified, NEW.banned))
EXECUTE FUNCTION "users_updated"();

-- What the rows of users do not take with them (the foreign keys cascade sessions, accounts, two-factor,
-- passkeys, API keys, memberships, team memberships and the invitations the user sent): invitations to
-- the address, pending codes and links for it or the user (better-auth keeps the address or the id in a
-- verification's identifier or value), and the published outbox rows that name the user, among them the
-- UserCreated and UserUpdated written before their payloads lost the address. The UserDeleted written
-- here stays until it is published and pruned: it carries only the id, and every service needs it.
CREATE OR REPLACE FUNCTION "users_deleted"() RETURNS TRIGGER
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  DELETE FROM invitations WHERE lower(email) = lower(OLD.email);
  DELETE FROM verifications
   WHERE strpos(lower(identifier), lower(OLD.email)) > 0 OR strpos(lower(value), lower(OLD.email)) > 0
      OR strpos(identifier, OLD.id) > 0 OR strpos(value, OLD.id) > 0;
  DELETE FROM outbox_events
   WHERE published_at IS NOT NULL
     AND (position(convert_to(OLD.id, 'UTF8') IN payload) > 0 OR position(convert_to(OLD.email, 'UTF8') IN payload) > 0);
  PERFORM enqueue_user_event('engram.identity.user.deleted', pb_string_field(1, OLD.id));
  RETURN NULL;
END $$;

-- The published user events written before this migration carry the address and the name; the stream
-- has them, and the outbox keeps them only for looking back.
DELETE FROM outbox_events
 WHERE published_at IS NOT NULL AND type IN ('engram.identity.user.created', 'engram.identity.user.updated');
