// Who is signed in, as a round picture: their avatar, or their initials when they have none.
import type { SessionUser } from '../lib/auth-client';

function initials(name: string, email: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 0 ? words.slice(0, 2).map((word) => word[0]) : [email[0]];
  return letters.join('').toUpperCase();
}

export function UserAvatar({ user }: { user: Pick<SessionUser, 'image' | 'name' | 'email'> }) {
  return user.image ? (
    <img src={user.image} alt="" className="size-9 shrink-0 rounded-full object-cover" />
  ) : (
    <span
      className="grid size-9 shrink-0 place-items-center rounded-full bg-brand-100 text-sm font-semibold text-brand-700"
      aria-hidden="true"
    >
      {initials(user.name, user.email)}
    </span>
  );
}
