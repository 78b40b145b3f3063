import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { PushKind, PushPayload } from '../../../contract/push';
import type { EventBus } from '../../platform/events';
import { endingSoonRecipients } from '../marketing/audience';
import type { PushSender } from './sender';

// What is pushed, and when (docs/product.md#web-push): on domain events, which are published only
// after their transaction's COMMIT, so nothing is pushed for a change that rolled back and no
// push service is waited on inside a transaction. The sender skips anyone on a break.
//  - 'draw.result': each entrant learns the result; each main prize's winner is told "You won".
//  - 'instant-win.claimed': the winner is told "You won".
//  - 'competition.endingSoon': the marketing audience (opted in, entered or watching).

/** How long a push service keeps an undelivered notification: a result is news for a day. */
const RESULT_TTL_SECONDS = 24 * 3600;
const ENDING_SOON_TTL_SECONDS = 6 * 3600;

const payloadOf = (kind: PushKind, competitionId: number, title: string, body: string): PushPayload => ({
  kind,
  title,
  body,
  url: `/competitions/${competitionId}`,
  competitionId,
});

async function titleOf(db: Knex, competitionId: number): Promise<string | undefined> {
  const row = (await db('competitions').where({ id: competitionId }).first('title')) as
    | { title: string }
    | undefined;
  return row?.title;
}

/** The accounts holding a sold ticket in the competition. */
async function entrantsOf(db: Knex, competitionId: number): Promise<number[]> {
  const rows = (await db('tickets')
    .where({ competitionId, status: 'sold' })
    .whereNotNull('userId')
    .distinct('userId')) as Array<{ userId: number }>;
  return rows.map((r) => Number(r.userId));
}

export interface PushNotificationDeps {
  db: Knex;
  events: EventBus;
  logger: Logger;
  sender: PushSender;
}

/** Subscribes to the events; returns a stop that unsubscribes and waits for the pushes under way. */
export function startPushNotifications({ db, events, logger, sender }: PushNotificationDeps) {
  const running = new Set<Promise<unknown>>();
  const track = (what: string, competitionId: number, work: () => Promise<unknown>) => {
    const run = work()
      .catch((err) => logger.error({ err, competitionId }, `${what} web push failed`))
      .finally(() => running.delete(run));
    running.add(run);
  };

  const stops = [
    events.subscribe('draw.result', ({ record }) =>
      track('draw result', record.competitionId, async () => {
        const { competitionId, title } = record;
        const prizes = record.prizes.length
          ? record.prizes
          : [{ winnerUserId: record.winnerUserId, title, winningNumber: record.winningNumber, position: 1 }];
        const winners = new Set<number>();
        for (const p of prizes) {
          if (p.winnerUserId === null) continue;
          winners.add(Number(p.winnerUserId));
          const prize = p.title && p.title !== title ? `${p.title} in ${title}` : title;
          await sender.send(
            [Number(p.winnerUserId)],
            payloadOf('won', competitionId, 'You won!', `You won ${prize} with ticket #${p.winningNumber}.`),
            RESULT_TTL_SECONDS,
          );
        }
        const others = (await entrantsOf(db, competitionId)).filter((id) => !winners.has(id));
        await sender.send(
          others,
          payloadOf(
            'draw-result',
            competitionId,
            `Drawn: ${title}`,
            `The winning ticket is #${record.winningNumber}. See the result.`,
          ),
          RESULT_TTL_SECONDS,
        );
      }),
    ),
    events.subscribe('instant-win.claimed', ({ competitionId, winnerUserId, prizeTitle, number }) => {
      if (winnerUserId === null) return;
      track('instant win', competitionId, async () => {
        const title = (await titleOf(db, competitionId)) ?? 'a competition';
        await sender.send(
          [winnerUserId],
          payloadOf('won', competitionId, 'You won!', `Ticket #${number} in ${title} won ${prizeTitle}.`),
          RESULT_TTL_SECONDS,
        );
      });
    }),
    events.subscribe('competition.endingSoon', ({ competitionId }) =>
      track('ending soon', competitionId, async () => {
        const title = await titleOf(db, competitionId);
        if (title === undefined) return;
        const audience = await endingSoonRecipients(db, competitionId);
        await sender.send(
          audience.map((r) => r.userId),
          payloadOf(
            'ending-soon',
            competitionId,
            `Ending soon: ${title}`,
            'Last chance to enter before it closes.',
          ),
          ENDING_SOON_TTL_SECONDS,
        );
      }),
    ),
  ];

  return async () => {
    for (const stop of stops) stop();
    sender.close();
    await Promise.all([...running]);
  };
}
