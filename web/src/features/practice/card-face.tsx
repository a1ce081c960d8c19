// One side of a review item, rendered by the app's one card renderer (maths, highlighted code, cloze
// deletions as the cards service asks them); cards never carry live HTML.
import { RenderedMarkdown } from '../../components/card/card-view';

export function CardFace({ markdown, label }: { markdown: string; label: string }) {
  return (
    <section aria-label={label} className="min-w-0 px-8 py-10">
      <RenderedMarkdown markdown={markdown} className="text-lg leading-relaxed text-slate-900" />
    </section>
  );
}
