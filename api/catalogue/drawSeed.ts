import { createHash, randomBytes } from 'node:crypto';

/**
 * A new competition's draw secret: 32 random bytes (hex) and their published SHA-256 (hex).
 * The same commitment as contract/draw.ts drawCommitment(), computed synchronously here.
 */
export function newDrawSeed(): { drawSeed: string; drawCommitment: string } {
  const seed = randomBytes(32);
  return { drawSeed: seed.toString('hex'), drawCommitment: createHash('sha256').update(seed).digest('hex') };
}
