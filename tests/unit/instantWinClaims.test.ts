import { describe, expect, it } from 'vitest';
import type { PublicInstantWin } from '../../contract/instantWins';
import { withClaims } from '../../web/live/instantWinStore';

// The competition page lays live `instant-win:claimed` events over the list it loaded.

const list: PublicInstantWin[] = [
  { id: 1, title: '£1 credit', kind: 'credit', won: true, number: 3, winnerDisplayName: 'Ann L.' },
  { id: 2, title: '£1 credit', kind: 'credit', won: false },
  { id: 3, title: 'AirPods', kind: 'prize', won: false },
];

describe('withClaims', () => {
  it('marks the first unwon prize of the claimed title won, with its number and winner', () => {
    const out = withClaims(list, [{ number: 12, prizeTitle: '£1 credit', winnerDisplayName: 'Jory P.' }]);
    expect(out[1]).toEqual({
      id: 2,
      title: '£1 credit',
      kind: 'credit',
      won: true,
      number: 12,
      winnerDisplayName: 'Jory P.',
    });
    expect(out[2]).toEqual(list[2]);
  });

  it('ignores a claim the list already shows, and one of an unknown prize', () => {
    const claims = [
      { number: 3, prizeTitle: '£1 credit', winnerDisplayName: 'Ann L.' },
      { number: 40, prizeTitle: 'Boat', winnerDisplayName: 'Jory P.' },
    ];
    expect(withClaims(list, claims)).toEqual(list);
  });
});
