// Pure rules of the number selector, kept apart from the component so they can be unit-tested.

export type IsFree = (n: number) => boolean;

export interface Toggled {
  selection: number[];
  /** The click was refused because the selection is already full. */
  limitReached: boolean;
}

/** Click on a number: unselect it, or select it while fewer than `limit` are chosen. */
export function toggleNumber(selection: number[], n: number, limit: number): Toggled {
  if (selection.includes(n)) return { selection: selection.filter((x) => x !== n), limitReached: false };
  if (selection.length >= limit) return { selection, limitReached: true };
  return { selection: [...selection, n], limitReached: false };
}

export interface Picked extends Toggled {
  /** How many tickets: raised to follow the picks past it. */
  quantity: number;
}

/**
 * Click on a number in the selector: the count follows the picks. Unpicking keeps the count (the
 * rest can still be picked or Lucky Dipped); a pick past it raises it, up to `max`, beyond which
 * the click is refused.
 */
export function pickNumber(selection: number[], n: number, quantity: number, max: number): Picked {
  const toggled = toggleNumber(selection, n, Math.max(quantity, max));
  const next = toggled.selection;
  return { ...toggled, quantity: Math.max(quantity, next.length) };
}

/** Selected numbers that someone else has since reserved or bought. */
export const lostNumbers = (selection: number[], isFree: IsFree) => selection.filter((n) => !isFree(n));

/** Up to `limit` free numbers whose digits contain `query` (e.g. '777'), smallest first. */
export function searchNumbers(total: number, query: string, isFree: IsFree, limit = 24): number[] {
  const digits = query.replace(/\D/g, '');
  if (!digits) return [];
  const out: number[] = [];
  for (let n = 1; n <= total && out.length < limit; n++) {
    if (String(n).includes(digits) && isFree(n)) out.push(n);
  }
  return out;
}

/** Jump targets for big grids: pages of 1,000 numbers (coarser past 100 pages). */
export function rangePages(total: number): Array<{ start: number; end: number }> {
  if (total <= 1000) return [];
  const size = Math.max(1000, Math.ceil(total / 100 / 1000) * 1000);
  const pages: Array<{ start: number; end: number }> = [];
  for (let start = 1; start <= total; start += size)
    pages.push({ start, end: Math.min(total, start + size - 1) });
  return pages;
}

/**
 * Fills the rest of the selection with free numbers chosen uniformly at random ('Lucky Dip the
 * rest'); fewer when fewer are free.
 */
export function fillRandomly(
  selection: number[],
  quantity: number,
  total: number,
  isFree: IsFree,
  random: () => number = Math.random,
): number[] {
  const chosen = new Set(selection);
  const wanted = quantity - chosen.size;
  if (wanted <= 0) return selection;
  const candidates = (n: number) => isFree(n) && !chosen.has(n);
  const added: number[] = [];
  // Rejection sampling while the grid is mostly free; otherwise draw from the explicit free list.
  for (let tries = 0; added.length < wanted && tries < wanted * 50; tries++) {
    const n = 1 + Math.floor(random() * total);
    if (candidates(n) && !added.includes(n)) added.push(n);
  }
  if (added.length < wanted) {
    const pool: number[] = [];
    for (let n = 1; n <= total; n++) if (candidates(n) && !added.includes(n)) pool.push(n);
    while (added.length < wanted && pool.length) {
      const i = Math.floor(random() * pool.length);
      added.push(pool.splice(i, 1)[0]!);
    }
  }
  return [...selection, ...added];
}

/** 'Numbers 1, 2 and 3' style list for messages. */
export function listNumbers(numbers: number[]): string {
  const sorted = [...numbers].sort((a, b) => a - b).map((n) => n.toLocaleString('en-GB'));
  if (sorted.length <= 1) return sorted.join('');
  return `${sorted.slice(0, -1).join(', ')} and ${sorted.at(-1)}`;
}

export const plural = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : many);
