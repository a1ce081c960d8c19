// What an id Engram makes looks like, checked in one place wherever an id arrives from outside (a cursor, a
// file's address, a search's tags) before it reaches a query: a UUID, as PostgreSQL's gen_random_uuid() and
// crypto.randomUUID() write them.

/** A UUID's text in either case, to compose into larger patterns (a file's address). */
export const UUID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const UUID = new RegExp(`^${UUID_PATTERN}$`, 'i');

/** Whether `value` is a UUID's text. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
