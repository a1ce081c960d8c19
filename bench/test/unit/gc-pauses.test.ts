import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type GcPause, gcPausesOf, gcSummary, slowestThroughPauses } from '../../gc-pauses.ts';

const dir = mkdtempSync(join(tmpdir(), 'gc-pauses-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the garbage-collection pauses of a benchmark stack', () => {
  it('are noted by a process that loads the observer, with when each began, and read back by time', () => {
    const started = Date.now();
    // A process of the stack: the observer preloaded, one full collection forced and a burst of garbage.
    // It ends once both kinds of pause have been handed to observers (they come a little after the
    // pause), and what the observer noted since its last flush is written as it exits.
    const pid = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        `--import=${new URL('../../gc-pauses.ts', import.meta.url).href}`,
        '-e',
        `const { PerformanceObserver, constants } = require('node:perf_hooks');
         const seen = new Set();
         const alive = setInterval(() => {}, 1_000);
         const observer = new PerformanceObserver((list) => {
           for (const entry of list.getEntries()) seen.add(entry.detail.kind);
           if (seen.has(constants.NODE_PERFORMANCE_GC_MAJOR) && seen.has(constants.NODE_PERFORMANCE_GC_MINOR)) {
             observer.disconnect();
             clearInterval(alive);
             console.log(process.pid);
           }
         });
         observer.observe({ entryTypes: ['gc'] });
         globalThis.gc();
         let keep = [];
         for (let i = 0; i < 300000; i += 1) keep = [{ i, s: 'x' + i }];`,
      ],
      { env: { ...process.env, ENGRAM_BENCH_GC_DIR: dir }, encoding: 'utf8' },
    ).trim();
    const ended = Date.now();
    const pauses = gcPausesOf(dir, Number(pid), started, ended);
    expect(pauses.some((pause) => pause.kind === 'mark-compact')).toBe(true);
    expect(pauses.some((pause) => pause.kind === 'scavenge')).toBe(true);
    for (const pause of pauses) expect(pause.ms).toBeGreaterThan(0);
    // Outside the window asked for, nothing.
    expect(gcPausesOf(dir, Number(pid), ended + 1, ended + 60_000)).toEqual([]);
    // A process that noted nothing (or never ran with the observer) has no pauses.
    expect(gcPausesOf(dir, 1, started, ended)).toEqual([]);
  });

  it('are summed up per process, the longest-pausing first', () => {
    const pause = (ms: number): GcPause => ({ at: 0, kind: 'scavenge', ms });
    expect(gcSummary({ identity: [], cards: [pause(5), pause(12.34)], gateway: [pause(20), pause(9), pause(3)] })).toBe(
      'gateway 3 (32 ms, longest 20.0) · cards 2 (17 ms, longest 12.3)',
    );
    expect(gcSummary({ gateway: [] })).toBe('none');
  });

  it('say how many of the slowest operations ran through a pause, and in which process', () => {
    const pause = (at: number, ms: number): GcPause => ({ at, kind: 'scavenge', ms });
    // Four slow operations: 1000–1040, 1100–1150, 1200–1240, 1300–1345.
    const slowest = [
      { at: 1000, ms: 40 },
      { at: 1100, ms: 50 },
      { at: 1200, ms: 40 },
      { at: 1300, ms: 45 },
    ];
    const pauses = {
      // 990–1005 overlaps the first; 1150–1160 begins as the second ends, so it does not overlap it.
      gateway: [pause(990, 15), pause(1150, 10)],
      // 1210–1220 overlaps the third; a 2 ms pause during the fourth is too short to count.
      cards: [pause(1210, 10), pause(1320, 2)],
      // Overlaps the first too: counted for organizations, not twice in the total.
      organizations: [pause(1030, 4)],
      identity: [],
    };
    expect(slowestThroughPauses(slowest, pauses, 'reviews')).toBe(
      '2 of the 4 reviews at or over the p99 ran through a pause of 3 ms or more (gateway 1, cards 1, organizations 1)',
    );
    expect(slowestThroughPauses(slowest, { gateway: [] })).toBe(
      '0 of the 4 operations at or over the p99 ran through a pause of 3 ms or more',
    );
  });
});
