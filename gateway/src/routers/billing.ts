// The billing procedures: the plans, the learner's plan, checkout and the customer portal.
import {
  checkout,
  checkoutInput,
  checkoutSession,
  checkoutSessionInput,
  customer,
  plans,
  portal,
} from '../handlers/billing/billing.js';
import { protectedProcedure, publicProcedure, router } from '../trpc.js';

export const billingRouter = router({
  plans: publicProcedure.query(plans),
  customer: protectedProcedure.query(customer),
  checkout: protectedProcedure.input(checkoutInput).mutation(checkout),
  checkoutSession: protectedProcedure.input(checkoutSessionInput).query(checkoutSession),
  portal: protectedProcedure.mutation(portal),
});
