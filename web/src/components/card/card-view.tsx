// The one way a card is shown: the list, the editor's preview, practice and generated proposals render its
// Markdown (maths, code) through MarkdownBody, and a cloze card's deletions as practice asks them
// (@engram/contracts/cloze, the same function the cards service builds review items with). The renderer
// loads on demand, so KaTeX never weighs on a page without cards: the text shows as soon as Markdown is read, and
// its maths and code are typeset once they have loaded (markdown-body.tsx).
import { cardSummary } from '@engram/contracts/cloze';
import type { CardType } from '@engram/contracts/learning';
import { lazy, Suspense } from 'react';

const MarkdownBody = lazy(() => import('./markdown-body'));

type RenderedMarkdownProps = { markdown: string; className?: string | undefined };

/** A card side's Markdown, rendered. */
export function RenderedMarkdown({ markdown, className }: RenderedMarkdownProps) {
  return (
    <Suspense fallback={<div className={`prose-card ${className ?? ''}`} aria-busy="true" />}>
      <MarkdownBody markdown={markdown} className={className} />
    </Suspense>
  );
}

type CompactCardProps = { type: CardType; front: string; back: string };

/** A card at a glance, as in the card list: its front (a cloze card's deletions revealed and marked) and
 * back rendered, each clamped to a few lines, its pictures as whole thumbnails and its sounds as compact players
 * (never a strip cut by the clamp). */
export function CompactCard({ type, front, back }: CompactCardProps) {
  const summary = cardSummary(type, front, back);
  return (
    <div className="min-w-0" data-testid="compact-card">
      <RenderedMarkdown
        markdown={summary.front}
        className="max-h-28 overflow-hidden font-medium text-slate-900 [&_img]:max-h-16 [&_img]:w-auto [&_audio]:h-9 [&_audio]:max-w-full"
      />
      {summary.back.trim() !== '' && (
        <RenderedMarkdown
          markdown={summary.back}
          className="mt-2 max-h-20 overflow-hidden border-t border-dashed border-slate-200 pt-2 text-sm text-slate-600 [&_img]:max-h-12 [&_img]:w-auto [&_audio]:h-9 [&_audio]:max-w-full"
        />
      )}
    </div>
  );
}
