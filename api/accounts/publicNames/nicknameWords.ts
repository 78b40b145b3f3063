// The small word list nicknames are moderated against (docs/product.md#public-names-and-winner-stories).
// Kept on the server: a refused nickname is 400 with one message, never the word that matched.
// Words are matched on letters after undoing common digit swaps ('5h1t'), so spacing, '-' and '_'
// do not get one through. Only unambiguous words match inside others; the rest match whole words,
// so 'Hancock' and 'Scunthorpe' pass.

/** Refused anywhere in the nickname, its separators removed. */
const ANYWHERE = ['fuck', 'shit', 'wank', 'nigger', 'nigga', 'faggot', 'whore', 'bitch', 'twat', 'bastard'];

/** Refused as a whole word (or its plural). */
const WHOLE_WORDS = [
  'cunt',
  'dick',
  'cock',
  'pussy',
  'slut',
  'prick',
  'piss',
  'arse',
  'ass',
  'tit',
  'tits',
  'bollock',
  'bollocks',
  'retard',
  'spastic',
  'paki',
  'nazi',
  'hitler',
  'rape',
  'rapist',
];

/** Names that would pass for the site, its staff or another kind of public name. */
const RESERVED = [
  'admin',
  'administrator',
  'moderator',
  'mod',
  'staff',
  'support',
  'official',
  'anonymous',
  'entrant',
];

const DIGIT_LETTERS: Record<string, string> = {
  0: 'o',
  1: 'i',
  3: 'e',
  4: 'a',
  5: 's',
  7: 't',
  8: 'b',
  9: 'g',
};

const unswapped = (word: string) => word.replace(/[0-9]/g, (d) => DIGIT_LETTERS[d] ?? '');
const singular = (word: string) => (word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word);

/** Whether a well-formed nickname (contract NicknameSchema) uses a word we do not publish. */
export function isRefusedNickname(nickname: string): boolean {
  const parts = nickname
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
  const joined = parts.map(unswapped).join('');
  if (ANYWHERE.some((w) => joined.includes(w))) return true;
  // Each word read with its digit swaps undone, and with its digits dropped ('admin99').
  const words = parts.flatMap((p) => [unswapped(p), p.replace(/[0-9]/g, '')]).filter(Boolean);
  const refused = new Set([...WHOLE_WORDS, ...RESERVED]);
  return words.some((w) => refused.has(w) || refused.has(singular(w))) || RESERVED.includes(joined);
}
