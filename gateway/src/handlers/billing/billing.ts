// Kept only because web/src/features/landing/plans.ts imports PlansJson from this path; the gateway's
// answer types are re-exported by router.ts, and once the web imports them from there this file goes.
export type { PlansJson } from './plans.js';
