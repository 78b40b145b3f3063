import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { isRefusedNickname } from '../../api/accounts/publicNames/nicknameWords';
import { publicOwnerName } from '../../api/catalogue/presenter';
import { PublicNameSchema } from '../../contract/publicNames';

// Public names (docs/product.md#public-names-and-winner-stories): the one naming rule, the
// nickname's format and its word list.

describe('publicOwnerName with the public-name choice', () => {
  const sarah = { firstName: 'Sarah', lastName: 'Trelawny', username: 'st', deletedAt: null };
  it('shows the nickname, "Anonymous" or "Sarah T." as chosen', () => {
    expect(publicOwnerName({ ...sarah, publicNameMode: 'nickname', nickname: 'Kernow Kid' })).toBe(
      'Kernow Kid',
    );
    expect(publicOwnerName({ ...sarah, publicNameMode: 'anonymous', nickname: null })).toBe('Anonymous');
    expect(publicOwnerName({ ...sarah, publicNameMode: 'initial', nickname: null })).toBe('Sarah T.');
    // A nickname mode without a nickname (never stored so) falls back to the default.
    expect(publicOwnerName({ ...sarah, publicNameMode: 'nickname', nickname: null })).toBe('Sarah T.');
  });
  it('shows a deleted account as a former entrant whatever it chose', () => {
    expect(publicOwnerName({ ...sarah, deletedAt: 1, publicNameMode: 'nickname', nickname: 'Kid' })).toBe(
      'Former entrant',
    );
  });
});

describe('the nickname rules', () => {
  const parse = (nickname: unknown) => v.safeParse(PublicNameSchema, { mode: 'nickname', nickname });
  it('trims and single-spaces a nickname, ASCII letters, digits, spaces, - and _ only', () => {
    expect(parse('  Lucky   Penny ').output).toEqual({ mode: 'nickname', nickname: 'Lucky Penny' });
    for (const bad of ['ab', 'x'.repeat(21), 'Jo S.', 'Zoë', '-dash', '2024', 'a@b.co']) {
      expect(parse(bad).success, bad).toBe(false);
    }
  });
  it('refuses words from the list however they are spelt, and only whole words for the ambiguous', () => {
    for (const refused of ['sh1t', 'F_U_C_K', 'big-bitches', 'Dicks', 'Admin 2', 'anonymous', 'N4Z1']) {
      expect(isRefusedNickname(refused), refused).toBe(true);
    }
    for (const fine of ['Hancock', 'Scunthorpe Sam', 'Badminton Bob', 'Cocktail Kate', 'Essex Lad']) {
      expect(isRefusedNickname(fine), fine).toBe(false);
    }
  });
});
