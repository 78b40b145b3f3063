// The checks at the end of a swarm, through the public API only: what every customer was promised.

import type { UserEntryView } from '../../contract/checkout';
import type { CompetitionEntry, PublicCompetition } from '../../contract/competitions';

export interface JsonAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: whatever JSON the site answers, checked below
  body: any;
}

/** A customer of the swarm: what they paid for, and GET as them (their own session). */
export interface PayingCustomer {
  label: string;
  paid: Set<number>;
  get(path: string): Promise<JsonAnswer>;
}

export interface InvariantInput {
  competitionId: number;
  /** ticketsSold before the swarm started. */
  soldBefore: number;
  numbersBought: number;
  customers: PayingCustomer[];
  /** GET as a visitor. */
  get(path: string): Promise<JsonAnswer>;
}

/**
 * Whether no number is left to hold (sold, or held by others) or the competition closed: after a
 * failed journey, this tells a sold-out competition (the run is over) from an error.
 */
export async function nothingLeft(get: (path: string) => Promise<JsonAnswer>, competitionId: number) {
  const competition = await get(`/api/competitions/${competitionId}`);
  if (competition.status === 200 && (competition.body as PublicCompetition).status !== 'active') return true;
  const free = await get(`/api/competitions/${competitionId}/available-tickets`);
  return free.status === 200 && (free.body as number[]).length === 0;
}

/** Every broken promise, in words; empty when all hold. */
export async function checkInvariants(input: InvariantInput): Promise<string[]> {
  const violations: string[] = [];
  const { competitionId } = input;
  const entriesRes = await input.get(`/api/competitions/${competitionId}/entries`);
  const competitionRes = await input.get(`/api/competitions/${competitionId}`);
  if (entriesRes.status !== 200 || competitionRes.status !== 200)
    return [
      `The public API did not answer (entries ${entriesRes.status}, competition ${competitionRes.status})`,
    ];

  const seen = new Map<number, number>();
  for (const entry of entriesRes.body as CompetitionEntry[])
    for (const n of entry.ticketNumbers) seen.set(n, (seen.get(n) ?? 0) + 1);
  for (const [n, times] of seen) if (times > 1) violations.push(`Number ${n} is sold ${times} times`);

  const listed = [...seen.values()].reduce((a, b) => a + b, 0);
  const { ticketsSold } = competitionRes.body as PublicCompetition;
  if (ticketsSold !== listed)
    violations.push(`The sold count says ${ticketsSold} but the public entries list ${listed} numbers`);
  if (ticketsSold - input.soldBefore < input.numbersBought)
    violations.push(
      `The sold count rose by ${ticketsSold - input.soldBefore} but the swarm bought ${input.numbersBought} numbers`,
    );

  for (const customer of input.customers) {
    if (!customer.paid.size) continue;
    const mine = await customer.get('/api/user-entries');
    if (mine.status !== 200) {
      violations.push(`${customer.label}: My Entries answered ${mine.status}`);
      continue;
    }
    const entered = new Set(
      (mine.body as UserEntryView[])
        .filter((e) => e.competitionId === competitionId)
        .flatMap((e) => e.ticketNumbers),
    );
    for (const n of customer.paid) {
      if (!entered.has(n))
        violations.push(`${customer.label} paid for number ${n}, missing from their My Entries`);
      if (!seen.has(n))
        violations.push(`${customer.label} paid for number ${n}, missing from the public entries`);
    }
  }
  return violations;
}
