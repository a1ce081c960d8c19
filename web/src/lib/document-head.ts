// The document's title and description while a page is shown, in the current language; leaving the page
// gives the app's name back, so a screen without its own title never shows the previous page's.
import { useEffect } from 'react';

const APP_TITLE = 'Engram';

export function useDocumentHead(title: string, description?: string): void {
  useEffect(() => {
    document.title = title;
    if (description) document.querySelector('meta[name="description"]')?.setAttribute('content', description);
    return () => {
      document.title = APP_TITLE;
    };
  }, [title, description]);
}
