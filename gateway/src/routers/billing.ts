// The billing procedures: the plans, the learner's plan, checkout and the customer portal.
import { checkout, checkoutInput } from '../handlers/billing/checkout.js';
import { checkoutSession, checkoutSessionInput } from '../handlers/billing/checkout-session.js';
import { customer } from '../handlers/billing/customer.js';
import { plans } from '../handlers/billing/plans.js';
import { portal } from '../handlers/billing/portal.js';
import { protectedProcedure, publicProcedure, router } from '../trpc.js';

export const billingRouter = router({
  plans: publicProcedure.query(plans),
  customer: protectedProcedure.query(customer),
  checkout: protectedProcedure.input(checkoutInput).mutation(checkout),
  checkoutSession: protectedProcedure.input(checkoutSessionInput).query(checkoutSession),
  portal: protectedProcedure.mutation(portal),
});
