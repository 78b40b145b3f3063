import type { PublicInstantWin } from '../../../contract/instantWins';

export interface InstantWinGroup {
  title: string;
  kind: PublicInstantWin['kind'];
  count: number;
  /** Neither won nor retired: still to be won. */
  left: number;
  /** The won ones, in list order, for the line under the group. */
  won: PublicInstantWin[];
}

/** The instant wins grouped by prize (title and kind), in the order each first appears. */
export function groupInstantWins(list: readonly PublicInstantWin[]): InstantWinGroup[] {
  const groups = new Map<string, InstantWinGroup>();
  for (const w of list) {
    const key = JSON.stringify([w.title, w.kind]);
    let group = groups.get(key);
    if (!group) {
      group = { title: w.title, kind: w.kind, count: 0, left: 0, won: [] };
      groups.set(key, group);
    }
    group.count++;
    if (w.won) group.won.push(w);
    else if (!w.retired) group.left++;
  }
  return [...groups.values()];
}

/** '£5 site credit ×20, 18 left' (one of a kind: '£5 site credit, 1 left'; none left: 'all gone'). */
export function groupLine(g: InstantWinGroup): string {
  const times = g.count > 1 ? ` ×${g.count}` : '';
  return `${g.title}${times}, ${g.left > 0 ? `${g.left} left` : 'all gone'}`;
}
