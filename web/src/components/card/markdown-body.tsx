// A card's Markdown rendered to HTML (renderMarkdown: maths, code, no live HTML, no remote images). It
// suspends while the maths or highlighting its text needs is loading; card-view.tsx loads it on demand.
import { use, useMemo } from 'react';
import { featuresLoaded, renderMarkdown } from '../../lib/markdown';

type Props = { markdown: string; className?: string | undefined };

/**
 * Waits for what the text needs, then renders it. The wait is the only thing here: `use` is called only
 * while something loads, and React replays a suspended component once its promise settles, so a hook after
 * it would be called in the replay without its first render (React error #467). The rendering, with its
 * memo, is a component of its own.
 */
export default function MarkdownBody(props: Props) {
  const loading = featuresLoaded(props.markdown);
  if (loading) use(loading);
  return <RenderedMarkdown {...props} />;
}

function RenderedMarkdown({ markdown, className }: Props) {
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  return (
    <div
      className={`prose-card ${className ?? ''}`}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown escapes any HTML in the source
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
