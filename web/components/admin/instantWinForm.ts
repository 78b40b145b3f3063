import type { AdminInstantWin, InstantWinKind } from '../../../contract/instantWins';

// The instant-win lines of the competition form as typed, the request lines made from them, and
// the checks that need the whole form (ticket range, repeats), worded as the server words them.

export interface InstantWinFormRow {
  title: string;
  kind: InstantWinKind;
  amount: string; // pounds, credit prizes
  description: string; // prize prizes
  cashValue: string; // pounds, prize prizes
  /** Random numbers picked by the server, or the numbers typed. */
  pick: 'count' | 'numbers';
  count: string;
  numbers: string; // comma separated
}

export const emptyInstantWinRow = (): InstantWinFormRow => ({
  title: '',
  kind: 'credit',
  amount: '',
  description: '',
  cashValue: '',
  pick: 'count',
  count: '1',
  numbers: '',
});

/** A typed number as a number; what is not one goes as typed, for the schema to refuse. */
const numberOf = (text: string): number | string => {
  const t = text.trim();
  const n = Number(t);
  return t !== '' && Number.isFinite(n) ? n : t;
};

/** Pounds as typed to pence (the instant-win API takes pence); empty stays '', for the schema to refuse. */
const penceOf = (pounds: string): number | string => {
  const n = numberOf(pounds);
  return typeof n === 'number' ? Math.round(n * 100) : n;
};

export const numbersOf = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(numberOf);

/** One line of `instantWins` for POST/PUT /api/admin/competitions. */
export function instantWinBody(row: InstantWinFormRow) {
  const description = row.description.trim();
  return {
    title: row.title,
    kind: row.kind,
    ...(row.kind === 'credit'
      ? { amountPence: penceOf(row.amount) }
      : { ...(description ? { description } : {}), cashValuePence: penceOf(row.cashValue) }),
    ...(row.pick === 'count' ? { count: numberOf(row.count) } : { numbers: numbersOf(row.numbers) }),
  };
}

/**
 * What the schema cannot see: explicit numbers must be tickets of this competition and distinct
 * across the list, and the tickets must be enough for all. Keyed 'instantWins.<index>.numbers' or
 * 'instantWins'; empty when the list is fine (or the total is not a number yet).
 */
export function instantWinListErrors(rows: InstantWinFormRow[], totalTickets: number) {
  const errors: Record<string, string> = {};
  if (!Number.isInteger(totalTickets) || totalTickets < 1) return errors;
  const seen = new Set<number>();
  let wanted = 0;
  rows.forEach((row, i) => {
    if (row.pick === 'count') {
      const n = numberOf(row.count);
      if (typeof n === 'number') wanted += n;
      return;
    }
    for (const n of numbersOf(row.numbers)) {
      if (typeof n !== 'number') continue;
      const key = `instantWins.${i}.numbers`;
      if (n > totalTickets)
        errors[key] ??=
          `Instant-win number ${n} is not a ticket number: tickets run from 1 to ${totalTickets}.`;
      else if (seen.has(n))
        errors[key] ??= `Instant-win number ${n} is listed twice: each number can win only one prize.`;
      seen.add(n);
    }
  });
  if (!Object.keys(errors).length && seen.size + wanted > totalTickets)
    errors.instantWins = `There are ${totalTickets} tickets: not enough for ${seen.size + wanted} instant wins.`;
  return errors;
}

const poundsOf = (pence: number | null) => (pence === null ? '' : (pence / 100).toFixed(2));

/**
 * The current list as form lines, so replacing it starts from what is there: one line per prize
 * (same title, kind and value), on the numbers it sits on now.
 */
export function instantWinRowsOf(list: readonly AdminInstantWin[]): InstantWinFormRow[] {
  const rows = new Map<string, InstantWinFormRow>();
  for (const w of [...list].sort((a, b) => a.id - b.id)) {
    const key = JSON.stringify([w.title, w.kind, w.amountPence, w.description, w.cashValuePence]);
    const row = rows.get(key);
    if (row) {
      row.numbers = `${row.numbers}, ${w.number}`;
      continue;
    }
    rows.set(key, {
      ...emptyInstantWinRow(),
      title: w.title,
      kind: w.kind,
      amount: poundsOf(w.amountPence),
      description: w.description ?? '',
      cashValue: poundsOf(w.cashValuePence),
      pick: 'numbers',
      numbers: String(w.number),
    });
  }
  return [...rows.values()];
}
