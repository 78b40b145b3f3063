import { computeDraw, drawCommitment, entriesHash } from '../../../contract/draw';

// The browser's own check of a published draw (docs/draws.md section 5), with the same code the
// server drew with (contract/draw.ts on WebCrypto). Nothing here trusts the server's arithmetic:
// only its published inputs (commitment, seed, sold numbers) and its claimed outputs.

export type CheckStatus = 'passed' | 'failed';

export interface DrawCheck {
  key: 'commitment' | 'entries' | 'winner';
  label: string;
  status: CheckStatus;
  /** What the page was told, and what this browser computed. */
  published: string;
  computed: string;
}

export interface PublishedDraw {
  drawCommitment: string;
  seed: string;
  entriesHash: string;
  winningNumber: number;
}

const check = (key: DrawCheck['key'], label: string, published: string, computed: string): DrawCheck => ({
  key,
  label,
  status: published === computed ? 'passed' : 'failed',
  published,
  computed,
});

/** Recomputes the commitment, the entries hash and the winning number from the sold numbers. */
export async function verifyDraw(draw: PublishedDraw, soldNumbers: readonly number[]): Promise<DrawCheck[]> {
  const commitment = await drawCommitment(draw.seed).catch(() => 'not a valid seed');
  const hash = await entriesHash(soldNumbers).catch((err: Error) => `invalid list: ${err.message}`);
  const winner = await computeDraw(draw.seed, soldNumbers).then(
    (r) => String(r.winningNumber),
    (err: Error) => `cannot compute: ${err.message}`,
  );
  return [
    check(
      'commitment',
      'SHA-256 of the revealed seed equals the commitment published before sales',
      draw.drawCommitment,
      commitment,
    ),
    check(
      'entries',
      `SHA-256 of the ${soldNumbers.length.toLocaleString('en-GB')} sold numbers equals the entries hash`,
      draw.entriesHash,
      hash,
    ),
    check(
      'winner',
      'HMAC-SHA256 of the seed and entries hash picks the winning number',
      String(draw.winningNumber),
      winner,
    ),
  ];
}
