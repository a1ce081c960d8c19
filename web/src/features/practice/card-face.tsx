// One side of a review item, rendered by the app's one card renderer (maths, highlighted code, cloze
// deletions as the cards service asks them); cards never carry live HTML. The practice route loads the
// renderer with its own code, maths and highlighting included, so no card shows an empty face.
import MarkdownBody from '../../components/card/markdown-body';
import '../../lib/markdown-everything';

export function CardFace({ markdown, label, side }: { markdown: string; label: string; side: 'front' | 'back' }) {
  return (
    <section aria-label={label} data-side={side} className="min-w-0 px-8 py-10">
      <MarkdownBody markdown={markdown} className="text-lg leading-relaxed text-slate-900" />
    </section>
  );
}
