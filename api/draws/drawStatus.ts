import type { Knex } from 'knex';
import { isIndependentBeacon } from '../../contract/beacon';
import type { AdminDrawStatus } from '../../contract/draw';
import type { Competition } from '../../db/models';
import { fixedRoundOf } from './beacon/fixedRound';
import { awaitingPayments, isClosed, liveHoldsUntil, londonTime, NO_SALES, stillOpen } from './drawable';
import { loadDrawRecord } from './drawRecords';
import type { DrawRecord } from './presenter';

/** Where the draw of a competition stands, as the admin's competition detail shows it. */
export async function adminDrawStatus(
  db: Knex,
  c: Competition,
  autoAfterSeconds: number,
  now = Date.now(),
): Promise<{ drawStatus: AdminDrawStatus; record: DrawRecord | null }> {
  const record = c.drawnAt ? await loadDrawRecord(db, c.id) : undefined;
  if (record) {
    return {
      drawStatus: {
        state: 'drawn',
        message: `Drawn on ${londonTime(record.drawnAt)} (UK time): winning number ${record.winningNumber}.`,
      },
      record,
    };
  }
  const automatic = c.autoWin
    ? 'It is drawn automatically when its last ticket sells or when it closes.'
    : autoAfterSeconds > 0
      ? `If nobody presses Draw now, it is drawn automatically ${londonTime(Number(c.endDate) + autoAfterSeconds * 1000)} (UK time).`
      : 'It is drawn when an admin presses Draw now.';
  let drawStatus: AdminDrawStatus;
  const fixed = fixedRoundOf(c);
  const beaconError = c.drawBeaconError
    ? `Last beacon error (${londonTime(Number(c.drawBeaconErrorAt), 'medium')} UK time): ${c.drawBeaconError}`
    : null;
  const beacon = { ...(fixed ? { beaconRound: fixed.round } : {}), ...(beaconError ? { beaconError } : {}) };
  // The same order of checks as drawCompetition: a payment in flight may still bring a first sale.
  const until = c.ticketsSold < c.totalTickets ? await liveHoldsUntil(db, c.id, now) : null;
  if (fixed) {
    const chain = isIndependentBeacon(fixed.chain)
      ? 'drand quicknet'
      : 'the local test beacon (not independent)';
    drawStatus = {
      state: 'waiting_for_beacon',
      message: `Waiting for round ${fixed.round} of ${chain}, due ${londonTime(fixed.dueAt, 'medium')} (UK time); drawn as soon as it is out.`,
    };
  } else if (!isClosed(c, now))
    drawStatus = { state: 'open', message: `${stillOpen(c.endDate)} ${automatic}` };
  else if (until) drawStatus = { state: 'awaiting_payments', message: awaitingPayments(until) };
  else if (c.ticketsSold === 0) drawStatus = { state: 'no_sales', message: NO_SALES };
  else {
    drawStatus = {
      state: 'ready',
      message: `Closed with ${c.ticketsSold} tickets sold: ready to draw. ${automatic}`,
    };
  }
  return { drawStatus: { ...drawStatus, ...beacon }, record: null };
}
