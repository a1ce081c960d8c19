// Where the Generate screen's unsaved proposals wait (they were charged), and the notes the learner pasted:
// localStorage, keyed by the user, so they survive leaving the page, a reload or a closed tab, and a learner never
// sees another account's. Proposals are cleared when they are saved or discarded, notes when the learner empties
// the field; both at sign-out (lib/session-cache.ts). Kept tiny: the session cache, in the entry bundle, imports it.

const keyOf = (userId: string) => `engram.generate.${userId}`;
const notesKeyOf = (userId: string) => `engram.generate-notes.${userId}`;

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined; // storage switched off: proposals last as long as the page, as they did before
  }
}

function load(key: string): unknown {
  try {
    return JSON.parse(storage()?.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

function save(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // Over the quota: what is on the page stays there, only not across a reload.
  }
}

function clear(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {}
}

/** What this user left on the Generate screen, as stored (the screen checks its shape). */
export const loadGenerationDraft = (userId: string): unknown => load(keyOf(userId));
export const saveGenerationDraft = (userId: string, draft: unknown): void => save(keyOf(userId), draft);
export const clearGenerationDraft = (userId: string): void => clear(keyOf(userId));

/** The form this user was filling in (the notes and the choices beside them), as stored. */
export const loadNotesDraft = (userId: string): unknown => load(notesKeyOf(userId));
export const saveNotesDraft = (userId: string, draft: unknown): void => save(notesKeyOf(userId), draft);
export const clearNotesDraft = (userId: string): void => clear(notesKeyOf(userId));
