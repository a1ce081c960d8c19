// One side of a review item, rendered by the app's one card renderer (maths, highlighted code, cloze
// deletions as the cards service asks them); cards never carry live HTML. Its text shows at once; the maths and
// highlighting of every card are fetched as the session opens, beside it, so that a card is never blank while they
// load and those after it rarely wait for them.
import MarkdownBody from '../../components/card/markdown-body';

void import('../../lib/markdown-everything').catch(() => undefined);

export function CardFace({ markdown, label, side }: { markdown: string; label: string; side: 'front' | 'back' }) {
  return (
    <section aria-label={label} data-side={side} className="min-w-0 px-8 py-10">
      <MarkdownBody markdown={markdown} className="text-lg leading-relaxed text-slate-900" />
    </section>
  );
}
