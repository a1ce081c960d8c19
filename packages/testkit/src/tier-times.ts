// A vitest reporter that closes a run with each test tier's time (vitest.config.ts names the tiers): when its
// first file started and its last one ended, how many files and tests it ran, and the sum of its files' own
// times. Tiers run side by side in one run, so their spans overlap; the sum tells what a tier costs.
import type { Reporter, TestModule } from 'vitest/node';

interface TierRecord {
  firstStart: number;
  lastEnd: number;
  files: number;
  tests: number;
  failed: number;
  ownTime: number;
}

/** The tier of a vitest project: its name up to a colon ('unit:own-process' is of the unit tier). */
export const tierOfProject = (projectName: string) => projectName.split(':')[0] ?? projectName;

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

export class TierTimes implements Reporter {
  private readonly started = new Map<string, number>();
  private readonly tiers = new Map<string, TierRecord>();
  private runStart = Date.now();
  private readonly print: (text: string) => void;

  constructor(print: (text: string) => void = (text) => process.stdout.write(text)) {
    this.print = print;
  }

  onTestRunStart() {
    this.runStart = Date.now();
  }

  onTestModuleStart(testModule: TestModule) {
    this.started.set(testModule.moduleId, Date.now());
  }

  onTestModuleEnd(testModule: TestModule) {
    const end = Date.now();
    const start = this.started.get(testModule.moduleId) ?? end;
    const tier = tierOfProject(testModule.project.name);
    const record = this.tiers.get(tier) ?? {
      firstStart: start,
      lastEnd: end,
      files: 0,
      tests: 0,
      failed: 0,
      ownTime: 0,
    };
    record.firstStart = Math.min(record.firstStart, start);
    record.lastEnd = Math.max(record.lastEnd, end);
    record.files += 1;
    for (const test of testModule.children.allTests()) {
      record.tests += 1;
      if (test.result().state === 'failed') record.failed += 1;
    }
    record.ownTime += testModule.diagnostic().duration;
    this.tiers.set(tier, record);
  }

  onTestRunEnd() {
    if (this.tiers.size === 0) return;
    const rows = [...this.tiers].map(([tier, record]) => {
      const span = `${formatDuration(record.firstStart - this.runStart)} → ${formatDuration(record.lastEnd - this.runStart)}`;
      const failed = record.failed > 0 ? `, ${record.failed} failed` : '';
      return `  ${tier.padEnd(11)} ${String(record.files).padStart(4)} files ${String(record.tests).padStart(5)} tests${failed}   ${formatDuration(record.lastEnd - record.firstStart).padStart(7)} (${span}; files' own time ${formatDuration(record.ownTime)})`;
    });
    this.print(
      `\nTiers (time from a tier's first file starting to its last ending, from the run's start):\n${rows.join('\n')}\n\n`,
    );
  }
}
