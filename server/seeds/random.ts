/** A small deterministic PRNG (mulberry32) so demo data is the same on every machine and engine. */
export function seededRandom(seedText: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seedText.length; i++) h = Math.imul(h ^ seedText.charCodeAt(i), 16777619);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct numbers from 1..max (partial Fisher-Yates over a sparse map). */
export function pickDistinct(random: () => number, max: number, count: number): number[] {
  const swapped = new Map<number, number>();
  const picked: number[] = [];
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (max - i));
    const atJ = swapped.get(j) ?? j;
    swapped.set(j, swapped.get(i) ?? i);
    picked.push(atJ + 1);
  }
  return picked;
}
