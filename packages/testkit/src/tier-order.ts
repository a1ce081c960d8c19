// The order a run takes its files in. Two workers share the machine's two cores, and a run ends when its last
// file does: so the longest files go first (the proof, about five minutes; then the end-to-end files, a minute
// or two each; then delivery), and the many short unit and service files fill in behind them and even out the
// end. Within a tier, vitest's own order stands (files that failed last time first, then the slower ones).
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { tierOfProject } from './tier-times.ts';

/** The tiers, longest files first. */
export const TIER_ORDER = ['end-to-end', 'delivery', 'service', 'unit'];

/** The one file that takes longest by far (`npm run proof -- --short`). */
const LONGEST = /(^|\/)end-to-end\/proof\.test\.ts$/;

const rank = (spec: TestSpecification) => {
  if (LONGEST.test(spec.moduleId)) return -1;
  const index = TIER_ORDER.indexOf(tierOfProject(spec.project.name));
  return index === -1 ? TIER_ORDER.length : index;
};

export class LongestTiersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: vitest's order holds within a tier.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
