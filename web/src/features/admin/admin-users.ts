// The admin area's calls to identity's admin endpoints (better-auth's admin plugin), as TanStack Query
// keys and mutations. Every answer is checked by identity, which refuses non-admins whatever the screen shows.
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { adminAuthClient } from '../../lib/admin-client';
import { queryClient } from '../../lib/query-client';

export type AdminUser = {
  id: string;
  name: string;
  email: string;
  role?: string | null;
  banned?: boolean | null;
  banReason?: string | null;
  banExpires?: Date | string | null;
};

/** One of a user's signed-in sessions, as identity lists it for an admin (only those not yet expired). */
export type AdminSession = {
  id: string;
  token: string;
  createdAt: Date | string;
  updatedAt: Date | string;
  ipAddress?: string | null;
  userAgent?: string | null;
  impersonatedBy?: string | null;
};

export const ADMIN_PAGE_SIZE = 50;
const ADMIN_KEY = ['admin'] as const;
const USERS_KEY = [...ADMIN_KEY, 'users'] as const;
const SESSIONS_KEY = [...ADMIN_KEY, 'sessions'] as const;

/** better-fetch answers { data, error }; an error is thrown so the query layer toasts it. */
async function unwrap<T>(call: Promise<{ data: T | null; error: unknown }>): Promise<T> {
  const { data, error } = await call;
  if (error) throw error;
  return data as T;
}

export function useAdminUsers(search: string) {
  return useQuery({
    queryKey: [...USERS_KEY, search],
    queryFn: () =>
      unwrap(
        adminAuthClient.admin.listUsers({
          query: {
            limit: ADMIN_PAGE_SIZE,
            sortBy: 'createdAt',
            sortDirection: 'desc',
            ...(search && { searchValue: search, searchField: 'email', searchOperator: 'contains' }),
          },
        }),
      ) as Promise<{ users: AdminUser[]; total: number }>,
    // While a new search loads, the rows (and any form open in one) stay.
    placeholderData: keepPreviousData,
  });
}

const time = (date: Date | string) => new Date(date).getTime();

/** A user's sessions, the one active last first. */
export function useUserSessions(userId: string) {
  return useQuery({
    queryKey: [...SESSIONS_KEY, userId],
    queryFn: async () => {
      const { sessions } = await unwrap(adminAuthClient.admin.listUserSessions({ userId }));
      return (sessions as AdminSession[]).sort((a, b) => time(b.updatedAt) - time(a.updatedAt));
    },
  });
}

/** A mutation of the admin area, as options for useMutation or a form (useContractForm). The users and any
 * sessions shown are fetched again after it, whatever the outcome, before the caller hears of it: its toast,
 * or a panel closing, comes with the row already showing the change. */
export function adminAction<Input>(run: (input: Input) => Promise<{ data: unknown; error: unknown }>) {
  return {
    mutationFn: async (input: Input) => {
      try {
        return await unwrap(run(input));
      } finally {
        await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
      }
    },
  };
}

export const useAdminAction = <Input>(run: (input: Input) => Promise<{ data: unknown; error: unknown }>) =>
  useMutation(adminAction(run));
