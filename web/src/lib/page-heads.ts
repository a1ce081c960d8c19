// The indexable public pages and the messages of their title and description. The build writes them in
// English to dist/page-heads.json (build/page-heads.ts), from which the gateway fills each page's <head>
// and sitemap.xml; in the browser each page sets the same texts, in the current language, with
// useDocumentHead (document-head.ts).
export interface PublicPage {
  path: '/' | '/terms' | '/privacy' | '/help';
  /** Message keys in web/messages. */
  title: string;
  description: string;
}

export const PUBLIC_PAGES: readonly PublicPage[] = [
  { path: '/', title: 'meta_landing_title', description: 'meta_landing_description' },
  { path: '/help', title: 'meta_help_title', description: 'meta_help_description' },
  { path: '/terms', title: 'meta_terms_title', description: 'meta_terms_description' },
  { path: '/privacy', title: 'meta_privacy_title', description: 'meta_privacy_description' },
];
