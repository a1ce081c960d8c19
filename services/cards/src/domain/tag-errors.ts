// The refusals of the tag procedures: names are unique per learner regardless of case, and a tag is
// another learner's or gone.
import { Conflict, NotFound } from '@engram/kit/errors';

export const TAG_EXISTS = () => new Conflict('A tag with this name already exists.', 'TAG_EXISTS');
export const TAG_NOT_FOUND = () => new NotFound('Tag not found.', 'TAG_NOT_FOUND');
