// An optimization whose process ended it tells its owner why: the reason cards recorded travels as `failure`.
import type { Optimization } from '@engram/proto/cards/v1/settings';
import { describe, expect, it } from 'vitest';
import { optimizationJson } from '../../src/handlers/settings/json.js';

const answer = (status: string, outcome: string): Optimization =>
  ({
    id: 'job',
    presetId: 'preset',
    status,
    progressDone: 0,
    progressTotal: 0,
    outcome,
    evaluation: undefined,
    reviews: 0,
    needed: 0,
    createdAt: new Date('2026-11-28T10:00:00Z'),
    finishedAt: new Date('2026-11-28T10:01:00Z'),
  }) as Optimization;

describe('a failed optimization', () => {
  it.each(['out-of-memory', 'timed-out', 'crashed', 'gave-up'])('says it failed for %s', (reason) => {
    expect(optimizationJson(answer('failed', reason))).toMatchObject({
      status: 'failed',
      outcome: null,
      failure: reason,
    });
  });

  it('has no reason when it failed otherwise, and a finished one has none', () => {
    expect(optimizationJson(answer('failed', ''))).toMatchObject({ failure: null });
    expect(optimizationJson(answer('done', 'adopted'))).toMatchObject({ outcome: 'adopted', failure: null });
  });
});
