import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches now; follows changes (a rotated phone, a system setting).
 * False on the server and while hydrating what it rendered (it knows no screen), then the real answer.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const media = window.matchMedia?.(query);
      if (!media) return () => {};
      media.addEventListener('change', onChange);
      return () => media.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}
