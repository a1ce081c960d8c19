// A card's Markdown rendered to HTML (renderMarkdown: maths, code, no live HTML, no remote images). Heavy
// (KaTeX, highlight.js), so card-view.tsx loads it on demand.
import { useMemo } from 'react';
import { renderMarkdown } from '../../lib/markdown';

export default function MarkdownBody({ markdown, className }: { markdown: string; className?: string | undefined }) {
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  return (
    <div
      className={`prose-card ${className ?? ''}`}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown escapes any HTML in the source
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
