// The picture inside better-auth-ui's avatars: the user's uploaded image, else their Gravatar (through
// Engram, gravatar.ts). The library either shows the uploaded image or (with its gravatar option) always the
// Gravatar; Engram wants the Gravatar only as the fallback. The avatars of the account screens are the
// signed-in user's, so the fallback is the session's own.
import { AvatarImage as RadixAvatarImage } from '@radix-ui/react-avatar';
import { authClient } from '../auth-client';
import { gravatarUrl, isOwnPicture } from './gravatar';

/** Twice the largest avatar the screens draw (48 px), for sharp pictures on high-density displays. */
const GRAVATAR_SIZE = 96;

export function AvatarImage({ src, alt, className }: { src: string; alt: string; className?: string }) {
  const signedIn = Boolean(authClient.useSession().data?.user);
  const own = src && isOwnPicture(src, window.location.origin) ? src : undefined;
  const picture = own ?? (signedIn ? gravatarUrl(GRAVATAR_SIZE) : undefined);
  return <RadixAvatarImage src={picture} alt={alt} className={`aspect-square size-full ${className ?? ''}`} />;
}

/** Uploaded avatars are cropped square and stored with the user, as PNG of the library's default size. */
export const AVATAR_OPTIONS = { extension: 'png', Image: AvatarImage };
