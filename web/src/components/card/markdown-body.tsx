// A card's Markdown rendered to HTML (renderMarkdown: maths, code, no live HTML, no remote images). It
// suspends while the maths or highlighting its text needs is loading; card-view.tsx loads it on demand.
import { use, useMemo } from 'react';
import { featuresLoaded, renderMarkdown } from '../../lib/markdown';

export default function MarkdownBody({ markdown, className }: { markdown: string; className?: string | undefined }) {
  const loading = featuresLoaded(markdown);
  if (loading) use(loading);
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  return (
    <div
      className={`prose-card ${className ?? ''}`}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown escapes any HTML in the source
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
