// A stored number (E.164) as people write it (+55 11 91234 5678). The formatting needs libphonenumber-js's metadata,
// which a page that shows a number should not wait for: the number shows at once as stored, and is rewritten once
// the metadata has loaded, which it starts to do when the number comes near the screen.
import { type RefObject, useEffect, useState } from 'react';

export function useFormattedPhoneNumber(e164: string | null, place: RefObject<HTMLElement | null>): string | null {
  const [formatted, setFormatted] = useState<{ e164: string; text: string }>();
  useEffect(() => {
    const element = place.current;
    if (!e164 || !element) return;
    let gone = false;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        void import('./phone-numbers').then(({ formatPhoneNumber }) => {
          if (!gone) setFormatted({ e164, text: formatPhoneNumber(e164) });
        });
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => {
      gone = true;
      observer.disconnect();
    };
  }, [e164, place]);
  if (!e164) return null;
  return formatted?.e164 === e164 ? formatted.text : e164;
}
