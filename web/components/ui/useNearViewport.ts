import { type RefObject, useEffect, useState } from 'react';

/**
 * True once the element has come within `rootMargin` of the viewport, and from then on. Where the
 * browser has no IntersectionObserver, true at once.
 */
export function useNearViewport(ref: RefObject<Element | null>, rootMargin = '50% 0px'): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (near || !el) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, near, rootMargin]);
  return near;
}
