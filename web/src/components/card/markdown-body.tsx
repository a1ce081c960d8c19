// A card's Markdown rendered to HTML (renderMarkdown: maths, code, no live HTML, no remote images): the text at once,
// then enhanced. Until the maths or highlighting its text needs has loaded, its maths reads as typed and its code
// unhighlighted, and the body is marked aria-busy; then it is typeset. A card is never blank while its renderer
// loads (card-view.tsx loads this module on demand).
import { type RefObject, useEffect, useMemo, useReducer, useRef, useState } from 'react';
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
  const body = useRef<HTMLDivElement>(null);
  useOcclusionHeights(body, rendered.html);
  return (
    <div
      ref={body}
      className={`prose-card ${className ?? ''}`}
      aria-busy={rendered.busy || undefined}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown escapes any HTML in the source
      dangerouslySetInnerHTML={{ __html: rendered.html }}
    />
  );
}

/** Keeps each occlusion picture's height on its frame (--occlusion-h), which its text labels are sized by. */
function useOcclusionHeights(body: RefObject<HTMLDivElement | null>, html: string) {
  useEffect(() => {
    // The HTML just rendered: its frames are new elements to follow.
    if (!html.includes('occlusion-frame')) return;
    const frames = [...(body.current?.querySelectorAll<HTMLElement>('.occlusion-frame') ?? [])];
    if (frames.length === 0 || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) {
        (entry.target as HTMLElement).style.setProperty('--occlusion-h', `${entry.contentRect.height}px`);
      }
    });
    for (const frame of frames) observer.observe(frame);
    return () => observer.disconnect();
  }, [body, html]);
}
