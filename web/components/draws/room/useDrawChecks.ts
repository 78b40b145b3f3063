import { useEffect, useState } from 'react';
import type { DRAW_ROUTES } from '../../../../contract/apiDraws';
import { call } from '../../../api/call';
import { messageOf } from '../../../api/client';
import { NO_WEBCRYPTO } from '../VerifyDrawPanel';
import { type DrawCheck, type PublishedDraw, verifyDraw } from '../verifyDraw';

export type DrawChecks =
  | { kind: 'running' }
  | { kind: 'done'; checks: DrawCheck[] }
  | { kind: 'error'; message: string };

/**
 * This browser's own checks of a published draw (the BLS signature of the round, the seed against
 * its commitment, the entries, each winning number), run once the draw is known.
 */
export function useDrawChecks(competitionId: number, draw: PublishedDraw | null): DrawChecks {
  const [state, setState] = useState<DrawChecks>({ kind: 'running' });
  useEffect(() => {
    if (!draw) return;
    let live = true;
    const run = async () => {
      if (!globalThis.crypto?.subtle) return setState({ kind: 'error', message: NO_WEBCRYPTO });
      try {
        const entries = await call<typeof DRAW_ROUTES.drawEntries>(
          { method: 'GET', path: '/api/competitions/:id/draw-entries' },
          { params: { id: competitionId } },
        );
        const checks = await verifyDraw(draw, entries.numbers);
        if (live) setState({ kind: 'done', checks });
      } catch (err) {
        if (live)
          setState({ kind: 'error', message: messageOf(err, 'The sold numbers could not be loaded.') });
      }
    };
    setState({ kind: 'running' });
    void run();
    return () => {
      live = false;
    };
  }, [competitionId, draw]);
  return state;
}
