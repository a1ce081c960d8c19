import { describe, expect, it } from 'vitest';
import { cpuPerOperation } from '../../cpu.ts';

describe('CPU per operation', () => {
  it("sums a server's processes, each counting only what it spent between the snapshots", () => {
    const before = { bench: 100, gateway: 1_000, 'postgres#10': 5_000, 'postgres#11': 900 };
    // Backend 11 closed meanwhile (its 900 ms are not this phase's work); backend 12 started meanwhile.
    const after = { bench: 120, gateway: 1_300, 'postgres#10': 5_150, 'postgres#12': 50 };
    expect(cpuPerOperation(before, after, 100)).toBe('gateway 3.00 · postgres 2.00 · bench 0.20 (total 5.20 ms)');
  });

  it('leaves out a process that spent next to nothing', () => {
    expect(cpuPerOperation({ gateway: 10, billing: 5 }, { gateway: 110, billing: 5.1 }, 100)).toBe(
      'gateway 1.00 (total 1.00 ms)',
    );
  });
});
