// Renders `children` once their place comes near the screen (200 px ahead, IntersectionObserver), so what they load
// is fetched as the learner scrolls towards it rather than with the page; until then `placeholder` holds the place
// (a heading, so the page's outline and a screen reader's list of headings are whole from the start).
import { type ReactNode, useEffect, useRef, useState } from 'react';

export function WhenNear({ children, placeholder }: { children: ReactNode; placeholder: ReactNode }) {
  const [near, setNear] = useState(false);
  const place = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = place.current;
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => setNear(entries.some((entry) => entry.isIntersecting)), {
      rootMargin: '200px',
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return near ? children : <div ref={place}>{placeholder}</div>;
}
