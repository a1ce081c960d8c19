// The frame of the help, terms and privacy pages: the visitor's header, a title with its lead paragraph,
// a table of contents, the sections, and the site footer. The document's title and description follow
// the page (and the language).
import type { ReactNode } from 'react';
import { PublicHeader } from '../../components/public-header';
import { SiteFooter } from '../../components/site-footer';
import { useDocumentHead } from '../../lib/document-head';
import { m } from '../../lib/i18n';

export interface InfoSection {
  id: string;
  heading: string;
  /** Paragraphs, or anything richer (a list, a table). */
  body: ReactNode[];
}

interface InfoPageProps {
  title: string;
  description: string;
  lead: string;
  updated?: string;
  sections: InfoSection[];
}

export function InfoPage({ title, description, lead, updated, sections }: InfoPageProps) {
  useDocumentHead(`${title} · Engram`, description);
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-3xl flex-1 px-6 pt-8 pb-20">
        <h1 className="text-4xl font-bold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-4 text-lg text-slate-600">{lead}</p>
        {updated && <p className="mt-2 text-sm text-slate-600">{updated}</p>}
        <nav aria-label={m.info_contents()} className="mt-8 rounded-xl bg-white p-5 ring-1 ring-slate-200">
          <h2 className="text-sm font-semibold text-slate-900">{m.info_contents()}</h2>
          <ol className="mt-3 list-decimal space-y-1 pl-5 text-sm">
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="text-brand-700 underline-offset-4 hover:underline">
                  {section.heading}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        {sections.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="mt-10">
            <h2 id={`${section.id}-heading`} className="text-2xl font-semibold tracking-tight text-slate-900">
              {section.heading}
            </h2>
            <div className="mt-3 space-y-3 leading-7 text-slate-700">
              {section.body.map((part, index) =>
                typeof part === 'string' ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a section's paragraphs never move.
                  <p key={index}>{part}</p>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a section's parts never move.
                  <div key={index}>{part}</div>
                ),
              )}
            </div>
          </section>
        ))}
      </main>
      <SiteFooter />
    </div>
  );
}
