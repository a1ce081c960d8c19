// The ai service's part of a full data export (ExportUserData), with the offline generator and the real reader
// pool: a learner who uploaded a file and generated cards from it and from notes finds their usage per period
// and per day, each generation and the upload (its name and size, not its text) in it, and nothing of another
// learner's.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AiHarness, startAiHarness } from '../harness.js';

let ai: AiHarness;

beforeAll(async () => {
  ai = await startAiHarness({ generator: 'offline' });
});
afterAll(() => ai?.stop());

const newUser = () => `learner-${randomUUID().slice(0, 8)}`;
const MARKDOWN = '# Cells\n\nThe mitochondrion is the powerhouse of the cell.\n';
const NOTES = 'Osmosis: water moving across a membrane.\nDiffusion: particles spreading out.';

/** The part as the test reads it: the fields it looks into by name, the rest as they come. */
interface AiPart {
  usagePerPeriod: unknown[];
  usagePerDay: unknown[];
  generations: { startedAt: string }[];
  uploads: unknown[];
  lastKnownPlan: unknown;
}

async function exportOf(userId: string) {
  const { json } = await ai.as(userId).exportUserData();
  return { json, part: JSON.parse(json) as AiPart };
}

describe("a learner's part of the data export", () => {
  it('holds their usage per period and per day, each generation and their uploads without the text', async () => {
    const user = newUser();
    const upload = await ai.as(user).upload('biology.md', MARKDOWN);
    const fromFile = await ai.as(user).generate({ fileId: upload.fileId, count: 3, types: ['basic'] });
    const fromNotes = await ai.as(user).generate({ notes: NOTES, types: ['basic'] });
    const delivered = fromFile.proposals.length + fromNotes.proposals.length;
    expect(delivered).toBeGreaterThan(1);

    const { json, part } = await exportOf(user);
    const usage = await ai.as(user).usage();
    expect(part.usagePerPeriod).toEqual([
      expect.objectContaining({ generatedCards: delivered, periodEnd: usage.resetsAt?.toISOString() }),
    ]);
    expect(part.usagePerDay).toEqual([
      { day: part.generations[0]?.startedAt.slice(0, 10), generations: 2, generatedCards: delivered },
    ]);
    expect(part.generations).toEqual([
      expect.objectContaining({ status: 'complete', cardsRequested: 3, cardsDelivered: fromFile.proposals.length }),
      expect.objectContaining({ status: 'complete', cardsDelivered: fromNotes.proposals.length, generator: 'offline' }),
    ]);
    expect(part.uploads).toEqual([
      expect.objectContaining({ id: upload.fileId, fileName: 'biology.md', bytes: Buffer.byteLength(MARKDOWN) }),
    ]);
    expect(json).not.toContain('powerhouse');
    expect(part.lastKnownPlan).toMatchObject({ plan: 'free' });
  });

  it("holds nothing of another learner's", async () => {
    const other = newUser();
    const theirUpload = await ai.as(other).upload('diary.md', '# Private\n\nMy secret diary entry is here.\n');
    await ai.as(other).generate({ notes: NOTES, types: ['basic'] });

    const { json, part } = await exportOf(newUser());
    expect(part).toMatchObject({ usagePerPeriod: [], usagePerDay: [], generations: [], uploads: [] });
    for (const theirs of [other, theirUpload.fileId, 'diary.md']) expect(json).not.toContain(theirs);
  });
});
