// The styling of the learner's own note types (issue 45) for the cards drawn with them: each type's safe rules
// scoped to the element its cards are drawn in (`[data-note-type]`, @engram/contracts/note-types scopedCss), so no
// rule of a type reaches another type's cards or the rest of the page.
import { scopedCss } from '@engram/contracts/note-types';
import { useQuery } from '@tanstack/react-query';
import { noteTypesOptions } from '../../entities/note-types/queries';

export function NoteTypeStyles() {
  const types = useQuery(noteTypesOptions);
  const css = (types.data?.items ?? [])
    .filter((type) => !type.stock && type.css.trim() !== '')
    .map((type) => scopedCss(type.css, `[data-note-type="${type.id}"]`))
    .filter(Boolean)
    .join('\n');
  return css ? <style data-testid="note-type-styles">{css}</style> : null;
}
