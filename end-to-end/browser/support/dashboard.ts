// What the dashboard loads in its one batched tRPC request.
export const DASHBOARD_LOADS = [
  'billing.customer',
  'cards.progressMetrics',
  'cards.streak',
  'cards.reviewMetrics',
  'settings.getTimezone',
  'cards.list',
  'cards.generationUsage',
  'orgs.assignments',
];
