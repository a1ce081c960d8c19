-- User events from the users table itself. better-auth writes users through its own adapter (and an
-- operator may write SQL), so triggers put UserCreated, UserUpdated and UserDeleted into the outbox in
-- the transaction of the change. Each row is the outbox's usual EventEnvelope protobuf
-- (proto/engram/events/v1/envelope.proto and identity.proto), encoded here, so the relay and every
-- consumer read it like any other; test/user-events.test.ts decodes the rows with the generated codecs.
-- Every function keeps the search_path of this migration (the service's schema, which the runner
-- selects), so a write on any connection reaches this schema's outbox.

-- Protobuf's wire format: a varint is 7 bits a byte, least significant first, the high bit set on all
-- but the last byte. Only non-negative numbers occur here.
CREATE FUNCTION "pb_varint"(value BIGINT) RETURNS BYTEA
LANGUAGE plpgsql IMMUTABLE STRICT SET search_path FROM CURRENT AS $$
DECLARE
  encoded BYTEA := ''::BYTEA;
  rest BIGINT := value;
BEGIN
  IF rest < 0 THEN
    RAISE EXCEPTION 'pb_varint encodes non-negative numbers only, not %', value;
  END IF;
  WHILE rest >= 128 LOOP
    encoded := encoded || set_byte('\x00'::BYTEA, 0, ((rest & 127) | 128)::INT);
    rest := rest >> 7;
  END LOOP;
  RETURN encoded || set_byte('\x00'::BYTEA, 0, rest::INT);
END $$;

-- A field is its key (field number << 3 | wire type) and its value. Proto3 leaves out a field that holds
-- its default (empty, 0, false), and so do these, so the bytes equal what ts-proto encodes.

-- Wire type 2: length-delimited (strings, bytes, embedded messages).
CREATE FUNCTION "pb_bytes_field"(field INT, value BYTEA) RETURNS BYTEA
LANGUAGE sql IMMUTABLE SET search_path FROM CURRENT AS $$
  SELECT CASE WHEN value IS NULL OR length(value) = 0 THEN ''::BYTEA
    ELSE pb_varint((field << 3) | 2) || pb_varint(length(value)) || value END
$$;

CREATE FUNCTION "pb_string_field"(field INT, value TEXT) RETURNS BYTEA
LANGUAGE sql IMMUTABLE SET search_path FROM CURRENT AS $$
  SELECT pb_bytes_field(field, convert_to(value, 'UTF8'))
$$;

-- Wire type 0: varints (int64, enums, bools).
CREATE FUNCTION "pb_varint_field"(field INT, value BIGINT) RETURNS BYTEA
LANGUAGE sql IMMUTABLE SET search_path FROM CURRENT AS $$
  SELECT CASE WHEN value IS NULL OR value = 0 THEN ''::BYTEA ELSE pb_varint(field << 3) || pb_varint(value) END
$$;

CREATE FUNCTION "pb_bool_field"(field INT, value BOOLEAN) RETURNS BYTEA
LANGUAGE sql IMMUTABLE SET search_path FROM CURRENT AS $$
  SELECT CASE WHEN value THEN pb_varint_field(field, 1) ELSE ''::BYTEA END
$$;

-- google.protobuf.Timestamp {seconds = 1, nanos = 2}, as an embedded message, to the millisecond like
-- every timestamp a TypeScript Date carries.
CREATE FUNCTION "pb_timestamp_field"(field INT, value TIMESTAMPTZ) RETURNS BYTEA
LANGUAGE sql IMMUTABLE SET search_path FROM CURRENT AS $$
  SELECT CASE WHEN value IS NULL THEN ''::BYTEA ELSE pb_bytes_field(field,
    pb_varint_field(1, floor(extract(epoch FROM value))::BIGINT)
    || pb_varint_field(2, (floor(extract(epoch FROM value) * 1000)::BIGINT % 1000) * 1000000)) END
$$;

-- One outbox row, as @engram/kit/events/outbox writes it: an EventEnvelope {id, type, occurred_at, actor,
-- payload}, no trace headers. The actor is the system, "identity" (Actor.Kind SYSTEM = 2): a trigger
-- cannot tell who asked for the change.
-- It wakes the relay with a NOTIFY inside the transaction, which PostgreSQL delivers at commit. Other
-- services notify after their commit instead (kit's outbox-announce.ts), because notifying commits are
-- serialized database-wide; here that costs nothing measurable (accounts change a few times per user,
-- not per request), and a trigger has no "after commit" to wait for. Without it the relay would still
-- find the row on its next poll.
CREATE FUNCTION "enqueue_user_event"(subject TEXT, payload BYTEA) RETURNS VOID
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  event_id UUID := gen_random_uuid();
BEGIN
  INSERT INTO outbox_events (id, type, payload, headers)
  VALUES (
    event_id,
    subject,
    pb_string_field(1, event_id::TEXT)
      || pb_string_field(2, subject)
      || pb_timestamp_field(3, now())
      || pb_bytes_field(4, pb_varint_field(1, 2) || pb_string_field(2, 'identity'))
      || pb_bytes_field(5, payload),
    '{}'
  );
  PERFORM pg_notify('engram_outbox_' || current_schema(), '');
END $$;

-- engram.identity.user.created: UserCreated {user_id, email, name, image, username, role, email_verified, created_at}
CREATE FUNCTION "users_created"() RETURNS TRIGGER
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM enqueue_user_event('engram.identity.user.created',
    pb_string_field(1, NEW.id)
      || pb_string_field(2, NEW.email)
      || pb_string_field(3, NEW.name)
      || pb_string_field(4, NEW.image)
      || pb_string_field(5, NEW.username)
      || pb_string_field(6, NEW.role)
      || pb_bool_field(7, NEW.email_verified)
      || pb_timestamp_field(8, NEW.created_at));
  RETURN NULL;
END $$;

-- engram.identity.user.updated: UserUpdated {user_id, email, name, image, username, role, email_verified, banned}
CREATE FUNCTION "users_updated"() RETURNS TRIGGER
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM enqueue_user_event('engram.identity.user.updated',
    pb_string_field(1, NEW.id)
      || pb_string_field(2, NEW.email)
      || pb_string_field(3, NEW.name)
      || pb_string_field(4, NEW.image)
      || pb_string_field(5, NEW.username)
      || pb_string_field(6, NEW.role)
      || pb_bool_field(7, NEW.email_verified)
      || pb_bool_field(8, NEW.banned));
  RETURN NULL;
END $$;

-- engram.identity.user.deleted: UserDeleted {user_id}
CREATE FUNCTION "users_deleted"() RETURNS TRIGGER
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM enqueue_user_event('engram.identity.user.deleted', pb_string_field(1, OLD.id));
  RETURN NULL;
END $$;

CREATE TRIGGER "users_created" AFTER INSERT ON "users"
FOR EACH ROW EXECUTE FUNCTION "users_created"();

-- Only changes other services see: not sessions' bookkeeping (updated_at), onboarding or two-factor.
CREATE TRIGGER "users_updated" AFTER UPDATE ON "users"
FOR EACH ROW
WHEN ((OLD.email, OLD.name, OLD.image, OLD.username, OLD.role, OLD.email_verified, OLD.banned)
  IS DISTINCT FROM (NEW.email, NEW.name, NEW.image, NEW.username, NEW.role, NEW.email_verified, NEW.banned))
EXECUTE FUNCTION "users_updated"();

CREATE TRIGGER "users_deleted" AFTER DELETE ON "users"
FOR EACH ROW EXECUTE FUNCTION "users_deleted"();
