import type {} from '../../api/draws/events';
import { presentPublicDraw } from '../../api/draws/presenter';
import { iso } from '../../contract/dates';
import { competitionRoom } from '../rooms';
import type { ProjectionDeps } from './deps';

/** A draw's round fixed, the draw starting, and its result, to the competition room. */
export function projectDraws({ events, broadcast }: ProjectionDeps): void {
  events.subscribe('draw.pending', (e) =>
    broadcast(competitionRoom(e.competitionId), 'draw:pending', {
      competitionId: e.competitionId,
      round: e.round,
      expectedAt: iso(e.expectedAt),
      entriesFinalAt: iso(e.entriesFinalAt),
      delaySeconds: e.delayMs / 1000,
    }),
  );
  events.subscribe('draw.started', (e) => broadcast(competitionRoom(e.competitionId), 'draw:started', e));
  events.subscribe('draw.result', ({ record }) => {
    const { version, winningNumber, winnerName, seed, entriesHash, prizes, drawnAt } =
      presentPublicDraw(record);
    broadcast(competitionRoom(record.competitionId), 'draw:result', {
      competitionId: record.competitionId,
      winningNumber,
      winnerName,
      seed,
      entriesHash,
      version,
      beaconRound: record.beaconRound === null ? null : Number(record.beaconRound),
      beaconRandomness: record.beaconRandomness,
      prizes,
      drawnAt,
    });
  });
}
