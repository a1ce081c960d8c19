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

export const ADMIN_PAGE_SIZE = 50;
const USERS_KEY = ['admin', 'users'] as const;

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

/** A mutation of the admin area, as options for useMutation or a form (useContractForm). The list is fetched
 * again after it, whatever the outcome, before the caller hears of it: its toast, or a panel closing, comes
 * with the row already showing the change. */
export function adminAction<Input>(run: (input: Input) => Promise<{ data: unknown; error: unknown }>) {
  return {
    mutationFn: async (input: Input) => {
      try {
        return await unwrap(run(input));
      } finally {
        await queryClient.invalidateQueries({ queryKey: USERS_KEY });
      }
    },
  };
}

export const useAdminAction = <Input>(run: (input: Input) => Promise<{ data: unknown; error: unknown }>) =>
  useMutation(adminAction(run));
