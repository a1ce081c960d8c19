// The plans a visitor can buy, read from billing's catalogue through the public billing.plans procedure.
// A plain GET in tRPC's wire format (typed from the gateway's handler): the landing page stays within its
// JavaScript budget without the tRPC client, which the signed-in screens load with their routes.
import type { PlansJson } from '@engram/gateway/router';

export async function fetchPlans(): Promise<PlansJson> {
  const response = await fetch('/api/trpc/billing.plans', { headers: { accept: 'application/json' } });
  const body = (await response.json().catch(() => undefined)) as
    | { result?: { data?: PlansJson }; error?: { message?: string } }
    | undefined;
  const data = body?.result?.data;
  if (!response.ok || !data) {
    throw Object.assign(new Error(body?.error?.message ?? response.statusText), { status: response.status });
  }
  return data;
}

export const plansQuery = { queryKey: ['billing', 'plans', 'public'], queryFn: fetchPlans } as const;

/** The catalogue's currencies in its own order, without repeats. */
export const currenciesOf = (prices: PlansJson['prices']): string[] => [
  ...new Set(prices.map((price) => price.currency)),
];
