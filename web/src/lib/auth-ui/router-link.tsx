// better-auth-ui's links, followed by the app's router (no page load), and only ever to a page of this site.
import { useRouter } from '@tanstack/react-router';
import type { MouseEvent, ReactNode } from 'react';
import { DEFAULT_REDIRECT, sameSitePath } from '../redirects';

/** A click the browser should handle itself: another tab or window, or a download. */
const opensElsewhere = (event: MouseEvent) =>
  event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;

export function RouterLink({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
  const router = useRouter();
  const target = sameSitePath(href) ?? DEFAULT_REDIRECT;
  return (
    <a
      href={target}
      className={className}
      onClick={(event) => {
        if (event.defaultPrevented || opensElsewhere(event)) return;
        event.preventDefault();
        void router.navigate({ href: target });
      }}
    >
      {children}
    </a>
  );
}
