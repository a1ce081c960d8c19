// The plans' names as the learner reads them.
import { m } from '../../lib/i18n';

export const PLAN_NAMES: Record<string, () => string> = {
  free: m.billing_plan_free,
  plus: m.billing_plan_plus,
  pro: m.billing_plan_pro,
};
