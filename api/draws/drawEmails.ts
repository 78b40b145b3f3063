import { ordinal } from '../../contract/prizes';
import { type DrawProps, sendDrawResult, sendWinner } from '../platform/email/templates/draws';
import type { DrawDeps } from './drawable';
import type { DrawRecord, PrizeRecord } from './presenter';
import { markPrizeNotified, prizeLabel } from './prizes';

// The e-mails after a draw: each prize's winner, and the result to every other entrant. They are
// not events: they go once the draw has committed, and a failure never undoes the draw.

const drawProps = (record: DrawRecord, name: string, prize?: PrizeRecord): DrawProps => ({
  name,
  title: record.title,
  winningNumber: Number(prize?.winningNumber ?? record.winningNumber),
  drawnAt: Number(record.drawnAt),
  verifyLink: `/competitions/${record.competitionId}#verify-draw`,
  ...(prize ? { prize: prizeLabel(record, prize) } : {}),
});

/** Every prize's number for the entrants' e-mail, when there are several. */
const allWinningNumbers = (record: DrawRecord) =>
  record.prizes.length > 1
    ? {
        allWinningNumbers: record.prizes
          .map((p) => `${ordinal(p.position)} prize #${p.winningNumber}`)
          .join(', '),
      }
    : {};

/** Each prize's winner e-mail. A failure is logged and never undoes the draw. */
export async function notifyWinner(deps: DrawDeps, record: DrawRecord) {
  const { competitionId } = record;
  for (const prize of record.prizes) {
    if (!prize.email || prize.deletedAt || prize.winnerNotifiedAt) continue;
    try {
      const name = prize.firstName?.trim() || prize.username || 'there';
      const sent = await sendWinner(
        deps.mailer,
        { to: prize.email, userId: prize.winnerUserId },
        drawProps(record, name, prize),
      );
      await markPrizeNotified(deps.db, competitionId, prize.position, Date.now());
      deps.logger.info({ competitionId, position: prize.position, sent }, 'winner e-mail sent');
    } catch (err) {
      deps.logger.error({ err, competitionId, position: prize.position }, 'winner e-mail failed');
    }
  }
}

/**
 * 'The draw for X has been made' to every other entrant (the winner has their own e-mail), with
 * their numbers and the link to verify the draw. One failure is logged and the rest still go.
 */
export async function notifyEntrants(deps: DrawDeps, record: DrawRecord) {
  const rows = (await deps
    .db('tickets as t')
    .join('users as u', 'u.id', 't.userId')
    .where({ 't.competitionId': record.competitionId, 't.status': 'sold' })
    .whereNull('u.deletedAt')
    // Every prize's winner has their own e-mail.
    .whereNotIn('u.id', [0, ...record.prizes.map((p) => p.winnerUserId ?? 0)])
    .orderBy([{ column: 'u.id' }, { column: 't.number' }])
    .select('u.id', 'u.email', 'u.firstName', 'u.username', 't.number')) as Array<{
    id: number;
    email: string;
    firstName: string | null;
    username: string;
    number: number;
  }>;
  const entrants = new Map<number, { email: string; name: string; numbers: number[] }>();
  for (const r of rows) {
    const e = entrants.get(r.id) ?? { email: r.email, name: r.firstName?.trim() || r.username, numbers: [] };
    e.numbers.push(Number(r.number));
    entrants.set(r.id, e);
  }
  let failed = 0;
  for (const [userId, e] of entrants) {
    await sendDrawResult(
      deps.mailer,
      { to: e.email, userId },
      { ...drawProps(record, e.name), yourNumbers: e.numbers, ...allWinningNumbers(record) },
    ).catch((err) => {
      failed += 1;
      deps.logger.error({ err, competitionId: record.competitionId, userId }, 'draw result e-mail failed');
    });
  }
  deps.logger.info(
    { competitionId: record.competitionId, entrants: entrants.size, failed },
    'draw result e-mails sent',
  );
}
