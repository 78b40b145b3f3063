import type { DrawBeacon } from '../../../../contract/beacon';
import type { PublicDraw } from '../../../../contract/draw';
import { ordinal } from '../../../../contract/prizes';
import type { DrawCheck } from '../verifyDraw';

/** One moment of the reveal, with the browser's checks that back it. */
export interface RevealStep {
  key: string;
  heading: string;
  /** A hex value shown in full (randomness, seed). */
  value?: string;
  /** Said under the value. */
  note?: string;
  /** A winning number, shown in the grid. */
  number?: number;
  checks: DrawCheck['key'][];
}

/**
 * The draw room's reveal, in order: the beacon round's randomness (rule 2), the seed against its
 * commitment, then each prize's winning number and its winner, 1st prize first.
 */
export function revealSteps(draw: PublicDraw, beacon: DrawBeacon | null, commitment: string): RevealStep[] {
  const steps: RevealStep[] = [];
  if (draw.version === 2 && beacon?.randomness)
    steps.push({
      key: 'round',
      heading: `drand round ${beacon.round.toLocaleString('en-GB')}`,
      value: beacon.randomness,
      note: 'The round’s randomness, signed by the beacon: no one here could choose it.',
      checks: ['beacon', 'round'],
    });
  steps.push({
    key: 'seed',
    heading: 'The seed, revealed',
    value: draw.seed,
    note: `Its SHA-256 must equal the commitment published before sales: ${commitment}`,
    checks: ['commitment', 'entries'],
  });
  const prizes = draw.prizes?.length
    ? draw.prizes
    : [{ position: 1, title: '', winningNumber: draw.winningNumber, winnerName: draw.winnerName }];
  for (const prize of prizes) {
    const label =
      prizes.length > 1
        ? `${ordinal(prize.position)} prize${prize.title ? ` (${prize.title})` : ''}`
        : 'The winning number';
    steps.push({
      key: `number-${prize.position}`,
      heading: `${label}: ${prize.winningNumber}`,
      number: prize.winningNumber,
      checks: [prize.position === 1 ? 'winner' : `prize-${prize.position}`],
    });
    steps.push({ key: `winner-${prize.position}`, heading: `Won by ${prize.winnerName}`, checks: [] });
  }
  return steps;
}

/** A step's checks: every one passed, one failed, or not run yet (missing ones are not counted). */
export function stepVerdict(
  step: RevealStep,
  checks: DrawCheck[] | null,
): 'passed' | 'failed' | 'checking' | 'none' {
  if (!step.checks.length) return 'none';
  if (!checks) return 'checking';
  const mine = checks.filter((c) => step.checks.includes(c.key));
  if (!mine.length) return 'none';
  return mine.every((c) => c.status === 'passed') ? 'passed' : 'failed';
}
