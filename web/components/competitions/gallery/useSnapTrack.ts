import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useReducedMotion } from '../../draws/useReducedMotion';

/**
 * A row of full-width slides in a scroll-snap track (docs/product.md#prize-galleries): the browser
 * swipes it (touch, trackpad) with native momentum; buttons and arrow keys move it here. `index`
 * follows both. A programmatic scroll passes through the slides between, so the scroll events
 * are ignored until it reaches its slide or the person takes over.
 */
export function useSnapTrack(count: number, start = 0) {
  const trackRef = useRef<HTMLDivElement>(null);
  const [chosen, setIndex] = useState(start);
  // An admin's edit may take pictures away while the page is open (competition:updated).
  const index = Math.min(chosen, Math.max(0, count - 1));
  const target = useRef<number | null>(null);
  const reducedMotion = useReducedMotion();

  const slideAt = useCallback(() => {
    const t = trackRef.current;
    if (!t?.clientWidth) return null;
    return Math.min(count - 1, Math.max(0, Math.round(t.scrollLeft / t.clientWidth)));
  }, [count]);

  const goTo = useCallback(
    (next: number, smooth = true) => {
      // Buttons and keys go round: at the last picture Next shows the first (no button turns
      // disabled under the focus).
      const i = ((next % count) + count) % count;
      setIndex(i);
      const t = trackRef.current;
      if (!t) return;
      target.current = i;
      const left = i * t.clientWidth;
      if (typeof t.scrollTo === 'function') {
        t.scrollTo({ left, behavior: smooth && !reducedMotion ? 'smooth' : 'auto' });
      } else t.scrollLeft = left;
      if (slideAt() === i) target.current = null;
    },
    [count, reducedMotion, slideAt],
  );

  // A swipe made before the page's script ran (the server-rendered track scrolls on its own).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the script takes over
  useEffect(() => {
    const at = slideAt();
    if (at !== null && target.current === null) setIndex(at);
  }, []);

  const onScroll = useCallback(() => {
    const at = slideAt();
    if (at === null) return;
    if (target.current !== null) {
      if (at === target.current) target.current = null;
      return;
    }
    setIndex(at);
  }, [slideAt]);

  /** A touch, a wheel or a press on the track: the person scrolls now, not the last button. */
  const takeOver = useCallback(() => {
    target.current = null;
  }, []);

  /** Left and right arrows, Home and End move between slides; the key's own scrolling is replaced. */
  const onKeyDown = useCallback(
    (e: KeyboardEvent) => {
      const moves: Record<string, number> = {
        ArrowLeft: index - 1,
        ArrowRight: index + 1,
        Home: 0,
        End: count - 1,
      };
      const next = moves[e.key];
      if (next === undefined || count < 2) return;
      e.preventDefault();
      goTo(next);
    },
    [count, goTo, index],
  );

  const trackProps = {
    ref: trackRef,
    onScroll,
    onPointerDown: takeOver,
    onTouchStart: takeOver,
    onWheel: takeOver,
  };
  return { index, goTo, onKeyDown, trackProps, trackRef };
}
