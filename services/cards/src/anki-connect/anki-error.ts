// The refusals AnkiConnect's clients read. They compare the error text by substring ("cannot create note because
// it is a duplicate", "unsupported action"), so these are AnkiConnect's own words; the gateway hands them on as
// the reply's `error`.
import { FailedPrecondition } from '@engram/kit/errors';

export const ANKI_CONNECT_REASON = 'ANKI_CONNECT';

export const ankiError = (message: string) => new FailedPrecondition(message, ANKI_CONNECT_REASON);

export const UNSUPPORTED_ACTION = 'unsupported action';
export const DUPLICATE_NOTE = 'cannot create note because it is a duplicate';
export const EMPTY_NOTE = 'cannot create note because it is empty';
export const modelNotFound = (name: string) => ankiError(`model was not found: ${name}`);
export const deckNotFound = (name: string) => ankiError(`deck was not found: ${name}`);
export const noteNotFound = (id: unknown) => ankiError(`Note was not found: ${String(id)}`);
