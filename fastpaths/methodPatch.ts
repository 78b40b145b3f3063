/**
 * One method of a library's prototype replaced by a fast path, which can be put on and taken off
 * again: off puts back the library's own method, so FAST_PATHS=off runs the plain library.
 */
export interface MethodPatch {
  apply(): void;
  revert(): void;
}

export function methodPatch<P extends object, K extends keyof P>(
  proto: P,
  name: K,
  replace: (original: P[K]) => P[K],
): MethodPatch {
  const original = proto[name];
  const replacement = replace(original);
  return {
    apply: () => {
      proto[name] = replacement;
    },
    revert: () => {
      proto[name] = original;
    },
  };
}
