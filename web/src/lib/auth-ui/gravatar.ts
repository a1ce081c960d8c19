// The picture an avatar may show. The CSP lets the browser load images from Engram only, so a picture on
// another site (a provider's profile photo, an address typed into the API) is never asked for: the avatar
// shows the user's Gravatar instead, which identity fetches for the signed-in user and serves from Engram's
// own origin (GET /api/auth/gravatar), answering 204 (no picture, and no failed request in the console) when there is none so the initials show.

/** Gravatar serves sizes from 1 to 2048 pixels. */
export const GRAVATAR_MIN_SIZE = 1;
export const GRAVATAR_MAX_SIZE = 2048;

/** The signed-in user's Gravatar at `size` pixels (clamped to Gravatar's range), through Engram. */
export function gravatarUrl(size: number): string {
  const pixels = Math.min(Math.max(Math.round(size), GRAVATAR_MIN_SIZE), GRAVATAR_MAX_SIZE);
  return `/api/auth/gravatar?size=${pixels}`;
}

/** Whether the browser may show `src` as it is: a picture stored with the user (a data URL) or Engram's own. */
export function isOwnPicture(src: string, origin: string): boolean {
  if (/^(data|blob):/i.test(src)) return true;
  try {
    return new URL(src, origin).origin === origin;
  } catch {
    return false;
  }
}
