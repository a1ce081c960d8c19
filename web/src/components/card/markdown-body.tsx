// A card's Markdown rendered to HTML (renderMarkdown: maths, code, no live HTML, no remote images): the text at once,
// then enhanced. Until the maths or highlighting its text needs has loaded, its maths reads as typed and its code
// unhighlighted, and the body is marked aria-busy; then it is typeset. A card is never blank while its renderer
// loads (card-view.tsx loads this module on demand).
import { useEffect, useMemo, useReducer, useState } from 'react';
import { featuresLoaded, renderMarkdown } from '../../lib/markdown';

type Props = { markdown: string; className?: string | undefined };

export default function MarkdownBody({ markdown, className }: Props) {
  const loading = featuresLoaded(markdown);
  const [, loaded] = useReducer((count: number) => count + 1, 0);
  // Offline without the chunk, say: the text stays as it is, no longer marked as on its way.
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!loading) return;
    let current = true;
    loading.then(
      () => current && loaded(),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [loading]);
  const busy = loading !== undefined && !failed;
  const rendered = useMemo(() => ({ busy, html: renderMarkdown(markdown) }), [markdown, busy]);
  return (
    <div
      className={`prose-card ${className ?? ''}`}
      aria-busy={rendered.busy || undefined}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown escapes any HTML in the source
      dangerouslySetInnerHTML={{ __html: rendered.html }}
    />
  );
}
