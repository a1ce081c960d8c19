// cards.offlineSet: what a device keeps to practise the next days without the network (cards' ListOffline), and the
// dashboard's progress and streak as of it (cards' ProgressMetrics and Streak), and the styling of the note types
// of the notes it holds (cards' ListNoteTypes, asked only when it holds a note).
import { type OfflineSet, offlineSetInput } from '@engram/contracts/offline';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { itemSidesJson, itemStateJson } from './card-json.js';

export { offlineSetInput };

export async function offlineSet({ ctx, input }: HandlerArgs<z.infer<typeof offlineSetInput>>): Promise<OfflineSet> {
  const cards = asUser(ctx);
  // The dashboard's progress and streak as of the set, which the device moves on with the reviews done on it.
  const [answer, progress, streak] = await Promise.all([
    cards.reviews.listOffline({ horizonDays: input.horizonDays ?? 0 }),
    cards.metrics.progressMetrics({}),
    cards.metrics.streak({}),
  ]);
  const noteTypeIds = new Set(answer.items.map(({ item }) => item?.noteTypeId).filter(Boolean));
  const styled =
    noteTypeIds.size === 0
      ? []
      : (await cards.cards.listNoteTypes({})).items.filter((type) => noteTypeIds.has(type.id) && type.css.trim());
  return {
    generatedAt: (answer.generatedAt ?? new Date()).toISOString(),
    items: answer.items.map(({ item, memory, presetId }) => {
      if (!item) throw new Error('the cards service returned an offline item without its item');
      return {
        ...itemSidesJson(item),
        memory: itemStateJson(memory),
        presetId: presetId || null,
      };
    }),
    doneToday: answer.doneToday.map((done) => ({
      presetId: done.presetId || null,
      newCards: done.newCards,
      reviews: done.reviews,
    })),
    dueDays: answer.dueDays.map(({ day, items }) => ({ day, items })),
    complete: answer.complete,
    progress,
    streak,
    noteTypeStyles: styled.map(({ id, css }) => ({ id, css })),
  };
}
