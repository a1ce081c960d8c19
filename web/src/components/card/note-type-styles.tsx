// The styling of the learner's own note types (issue 45) for the cards drawn with them: each type's safe rules
// scoped to the element its cards are drawn in (`[data-note-type]`, @engram/contracts/note-types scopedCss), so no
// rule of a type reaches another type's cards or the rest of the page. Without the network (the note types not
// answered) practice draws them with the styling the device kept with its offline set.
import { scopedCss } from '@engram/contracts/note-types';
import { useQuery } from '@tanstack/react-query';
import { noteTypesOptions } from '../../entities/note-types/queries';
import { deviceOf } from '../../entities/offline/device';

type Styling = { id: string; css: string };

/** The styling of the note types the device keeps notes of, for `userId`'s practice offline. */
const keptStyling = (userId: string) => ({
  queryKey: ['device', userId, 'note-type-styles'],
  queryFn: async (): Promise<Styling[]> => (await (await deviceOf(userId)).state())?.set.noteTypeStyles ?? [],
  networkMode: 'always' as const,
});

/** `userId`: whose device's kept styling to use while the note types are not answered (practice). */
export function NoteTypeStyles({ userId }: { userId?: string | undefined }) {
  const types = useQuery(noteTypesOptions);
  const kept = useQuery({ ...keptStyling(userId ?? ''), enabled: userId !== undefined && types.data === undefined });
  const own: Styling[] = types.data ? types.data.items.filter((type) => !type.stock) : (kept.data ?? []);
  const css = own
    .filter((type) => type.css.trim() !== '')
    .map((type) => scopedCss(type.css, `[data-note-type="${type.id}"]`))
    .filter(Boolean)
    .join('\n');
  return css ? <style data-testid="note-type-styles">{css}</style> : null;
}
