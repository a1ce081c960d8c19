// One side of a review item, its Markdown rendered (math, highlighted code); cards never carry live HTML.
import { useMemo } from 'react';
import { renderMarkdown } from '../../lib/markdown';

export function CardFace({ markdown, label }: { markdown: string; label: string }) {
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  return (
    <section aria-label={label} className="px-8 py-10">
      <div
        className="prose-card text-lg leading-relaxed text-slate-900"
        // renderMarkdown escapes any HTML in the source (markdown-it with html: false).
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML comes from renderMarkdown only
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </section>
  );
}
