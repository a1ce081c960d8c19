// The billing reads: the catalogue (public, also on the landing page) and the learner's own plan.
import { trpc } from '../../lib/trpc';

export const plansOptions = trpc.billing.plans.queryOptions();
export const customerOptions = trpc.billing.customer.queryOptions();
