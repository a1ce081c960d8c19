// How a card's sides will look in practice (loaded on demand: it brings KaTeX and highlight.js).
import { useMemo } from 'react';
import { m } from '../../lib/i18n';
import { renderMarkdown } from '../../lib/markdown';

function Side({ label, markdown }: { label: string; markdown: string }) {
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  return (
    <section aria-label={label} className="px-4 py-3">
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</p>
      <div
        className="prose-card mt-1 text-sm text-slate-900"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown escapes any HTML in the source
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </section>
  );
}

export default function MarkdownPreview({ front, back }: { front: string; back: string }) {
  return (
    <div className="mt-2 divide-y divide-dashed divide-slate-200 rounded-lg bg-slate-50 ring-1 ring-slate-200">
      <Side label={m.new_card_front()} markdown={front} />
      {back.trim() !== '' && <Side label={m.new_card_back()} markdown={back} />}
    </div>
  );
}
