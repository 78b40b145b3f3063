import { useMediaQuery } from '../ui/useMediaQuery';

/** True when the visitor asked their system for less motion; follows changes while open. */
export const useReducedMotion = (): boolean => useMediaQuery('(prefers-reduced-motion: reduce)');
