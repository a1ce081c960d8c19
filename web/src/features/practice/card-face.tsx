// One side of a review item, rendered by the app's one card renderer (maths, highlighted code, cloze
// deletions as the cards service asks them); cards never carry live HTML. The practice route loads the
// renderer with its own code, so the first card shows at once, never an empty face.
import MarkdownBody from '../../components/card/markdown-body';

export function CardFace({ markdown, label }: { markdown: string; label: string }) {
  return (
    <section aria-label={label} className="min-w-0 px-8 py-10">
      <MarkdownBody markdown={markdown} className="text-lg leading-relaxed text-slate-900" />
    </section>
  );
}
