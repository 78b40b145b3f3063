import type { Knex } from 'knex';
import type { Connection } from 'mysql2';
import type { AddToCartInput } from '../../../contract/cart';
import { SITE_SETTINGS } from '../../../contract/siteSettings';
import type { Competition } from '../../../db/models';
import { driverConnectionOf } from '../../../fastpaths/pinnedConnection';
import type { EventBus } from '../../platform/events';
import type { CartOwner } from '../cartQueries';
import { type CartRead, cartKeyOf } from '../cartRevision';
import { candidateCount, randomCandidates } from '../numberPicker';
import type { AddResult } from '../reservations';
import { callInOrder, callProcedure, cartOf, numbersOf } from './procedureCall';

// The Lucky Dip hot path (docs/performance.md, "Holds: the floor"): on MariaDB with the fast paths
// on, POST /api/cart for a Lucky Dip is one prepared CALL of `hold_lucky_dip`
// (db/migrations/051_hold_procedures.ts) on the request's pinned connection: the cap lock, the
// checks, the pick among the random candidates drawn here, the item, its holds and their history,
// the cart read back, the version and revision bumps and the COMMIT, in one round trip. Anything
// but the plain case answers `fallback` and the general path (reservations.ts addToCart) runs and
// answers, so every refusal is the general path's own.

const CAP = SITE_SETTINGS.ticketCap.fields.defaultMaxTicketsPerUser;

/** What a hot hold produced: the general path's result and the cart it read back before COMMIT. */
export interface HotHold {
  result: AddResult;
  cart: CartRead;
}

export interface HotPathDeps {
  events: EventBus;
  ttlSeconds: number;
}

export class LuckyDipHotPath {
  /**
   * Each competition's size, as last seen: the candidates are drawn from it, and the procedure
   * falls back when it changed. Until a competition is seen, its Lucky Dips take the general path.
   */
  private totals = new Map<number, number>();

  constructor(private readonly deps: HotPathDeps) {}

  /** Remembers a competition's size from a hold on the general path (or an answer). */
  learn(competition: { id: number; totalTickets: number }): void {
    this.totals.set(competition.id, competition.totalTickets);
  }

  /**
   * The hold, or undefined when the general path must answer: not a Lucky Dip, the skill question
   * not passed, no pinned MariaDB connection (FAST_PATHS off, SQLite), a competition not seen yet
   * or too small for the candidates, or the procedure fell back.
   */
  async hold(
    db: Knex,
    owner: CartOwner,
    input: AddToCartInput,
    skillPassed: boolean,
    now = Date.now(),
  ): Promise<HotHold | undefined> {
    const connection = driverConnectionOf(db) as Connection | undefined;
    const total = this.totals.get(input.competitionId);
    const size = candidateCount(input.quantity);
    if (!connection || !skillPassed || input.selectedNumbers?.length || !total || size >= total / 2) {
      return undefined;
    }
    const { competitionId, quantity } = input;
    const ttlMs = this.deps.ttlSeconds * 1000;
    const params = [
      competitionId,
      owner.guestId,
      owner.userId,
      cartKeyOf(owner),
      quantity,
      JSON.stringify(randomCandidates(total, size)),
      total,
      CAP.key,
      CAP.default,
      now,
      ttlMs,
    ];
    const answer = await callInOrder(
      this.deps.events,
      competitionId,
      () => callProcedure(connection, 'hold_lucky_dip', params),
      ({ status }) => {
        if (status.status === 'held') return true;
        if (typeof status.totalTickets === 'number') this.totals.set(competitionId, status.totalTickets);
        return false;
      },
      ({ status }, emit) => {
        emit('tickets.reserved', {
          competitionId,
          version: Number(status.version),
          numbers: numbersOf(status.numbers),
        });
        emit('cart.changed', { owner, revision: Number(status.revision) });
      },
    );
    if (!answer) return undefined;
    const { status, sets } = answer;
    const cart = cartOf(sets, Number(status.revision));
    const itemId = Number(status.itemId);
    const entry = cart.entries.find((e) => e.item.id === itemId);
    // Read back in the hold's own transaction: the new line is always there.
    if (!entry?.item.competition) throw new Error(`hold_lucky_dip: line ${itemId} missing from its cart`);
    const numbers = numbersOf(status.numbers);
    const { item } = entry;
    const competition: Competition = entry.item.competition;
    const change = { competitionId, version: Number(status.version), numbers };
    return {
      result: {
        item,
        competition,
        heldNumbers: numbers,
        created: true,
        changes: [change],
        cartRevision: cart.revision,
      },
      cart,
    };
  }
}
