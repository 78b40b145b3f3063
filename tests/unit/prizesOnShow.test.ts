import { describe, expect, it } from 'vitest';
import type { PublicInstantWin } from '../../contract/instantWins';
import { fromLondonFields } from '../../contract/londonTime';
import { prizesOnShow, winnerCount } from '../../contract/prizes';
import { cardBadges } from '../../web/components/competitions/cardBadges';
import { groupInstantWins, groupLine } from '../../web/components/competitions/instantWinGroups';

// Nothing hidden (docs/product.md "Prizes on show"): the rules behind the prize list, the cards'
// badges and the grouped instant wins.

const prize = (title: string) => ({
  title,
  description: null,
  cashValuePence: null,
  cashAlternativePence: null,
  image: null,
});

describe('prizesOnShow', () => {
  const competition = { title: 'Car', image: '/c.svg', prizeValuePence: 900, cashAlternativePence: 700 };

  it('one prize, the title, with the competition’s value, cash alternative and picture', () => {
    expect(prizesOnShow(competition)).toEqual([
      { title: 'Car', description: null, cashValuePence: 900, cashAlternativePence: 700, image: '/c.svg' },
    ]);
  });

  it('a list: the 1st prize’s own facts win, its missing ones fall back, later prizes stay as listed', () => {
    const list = [{ ...prize('Bike'), cashValuePence: 100, image: '/b.svg' }, prize('Hat')];
    expect(prizesOnShow({ ...competition, mainPrizes: list })).toEqual([
      { ...list[0], cashAlternativePence: 700 },
      prize('Hat'),
    ]);
  });

  it('completes lists stored before the cash alternative and picture', () => {
    const old = [{ title: 'A', description: null, cashValuePence: 5 }] as never;
    expect(
      prizesOnShow({ ...competition, cashAlternativePence: null, image: null, mainPrizes: old }),
    ).toEqual([
      { title: 'A', description: null, cashValuePence: 5, cashAlternativePence: null, image: null },
    ]);
  });

  it('counts the winners: one a prize, at least one', () => {
    expect(winnerCount(undefined)).toBe(1);
    expect(winnerCount([1, 2, 3])).toBe(3);
  });
});

describe('cardBadges', () => {
  const noon = fromLondonFields('2026-11-28', '12:00');
  const base = {
    prizes: [prize('One')],
    instantWinCommitment: null as string | null,
    ticketsSold: 0,
    totalTickets: 100,
    endDate: new Date(noon + 10 * 86_400_000).toISOString(),
  };
  const texts = (c: Partial<typeof base>) => cardBadges({ ...base, ...c }, noon).map((b) => b.text);

  it('says nothing more for a single prize, no instant wins, none sold, not ending today', () => {
    expect(texts({})).toEqual([]);
  });

  it('badges the winners, instant wins and % sold (rounded down, from 1%)', () => {
    expect(
      texts({ prizes: [prize('1'), prize('2'), prize('3')], instantWinCommitment: 'ab', ticketsSold: 62 }),
    ).toEqual(['3 winners', 'Instant wins', '62% sold']);
    expect(texts({ ticketsSold: 0 })).toEqual([]);
    expect(texts({ totalTickets: 1000, ticketsSold: 9 })).toEqual([]);
    expect(texts({ ticketsSold: 100 })).toEqual(['100% sold']);
  });

  it('ends today: later on the same UK day only', () => {
    expect(texts({ endDate: new Date(fromLondonFields('2026-11-28', '23:30')).toISOString() })).toEqual([
      'Ends today',
    ]);
    expect(texts({ endDate: new Date(fromLondonFields('2026-11-29', '00:30')).toISOString() })).toEqual([]);
    expect(texts({ endDate: new Date(noon - 60_000).toISOString() })).toEqual([]);
  });
});

describe('groupInstantWins', () => {
  const win = (id: number, title: string, won = false, retired = false): PublicInstantWin => ({
    id,
    title,
    kind: 'credit',
    won,
    ...(won ? { number: id * 10, winnerDisplayName: 'Sam T.' } : {}),
    ...(retired ? { retired: true, number: id } : {}),
  });

  it('one line a prize, in first-seen order: "£5 credit ×20, 18 left"', () => {
    const list = [
      ...Array.from({ length: 20 }, (_, i) => win(i + 1, '£5 credit', i < 2)),
      win(21, 'Earbuds'),
      win(22, 'Hamper', false, true),
    ];
    const groups = groupInstantWins(list);
    expect(groups.map(groupLine)).toEqual(['£5 credit ×20, 18 left', 'Earbuds, 1 left', 'Hamper, all gone']);
    expect(groups[0]!.won.map((w) => w.number)).toEqual([10, 20]);
  });
});
