// Where the Generate screen's unsaved proposals wait (they were charged): localStorage, keyed by the user,
// so they survive leaving the page, a reload or a closed tab, and a learner never sees another account's.
// Cleared when they are saved or discarded, and at sign-out (lib/session-cache.ts). Kept tiny: the session
// cache, in the entry bundle, imports it.

const keyOf = (userId: string) => `engram.generate.${userId}`;

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined; // storage switched off: proposals last as long as the page, as they did before
  }
}

/** What this user left on the Generate screen, as stored (the screen checks its shape). */
export function loadGenerationDraft(userId: string): unknown {
  try {
    return JSON.parse(storage()?.getItem(keyOf(userId)) ?? 'null');
  } catch {
    return null;
  }
}

export function saveGenerationDraft(userId: string, draft: unknown): void {
  try {
    storage()?.setItem(keyOf(userId), JSON.stringify(draft));
  } catch {
    // Over the quota: the proposals stay on the page, only not across a reload.
  }
}

export function clearGenerationDraft(userId: string): void {
  try {
    storage()?.removeItem(keyOf(userId));
  } catch {}
}
