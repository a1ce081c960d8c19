// ADMIN_EMAILS: these addresses get the admin role when their account is created (by any sign-up method).
import type { BetterAuthOptions } from 'better-auth';

export function adminOnSignUp(adminEmails: readonly string[]): NonNullable<BetterAuthOptions['databaseHooks']> {
  const admins = new Set(adminEmails.map((email) => email.toLowerCase()));
  return {
    user: {
      create: {
        async before(user) {
          if (!admins.has(user.email.toLowerCase())) return;
          return { data: { ...user, role: 'admin' } };
        },
      },
    },
  };
}
