// npm run verify-draw -- <competition id>
//
// Checks a drawn competition from the public API of a running site (BASE_URL, default
// http://localhost:3000) with the same code the server draws with (contract/draw.ts,
// contract/beacon.ts):
//   1. SHA-256(seed) equals the commitment published before sales,
//   2. SHA-256 of the published entries equals the entries hash,
//   3. (version 2) the round is the one required by the published moment the entries became final
//      and the delay (contract/beacon.ts requiredRound, the server's own function), and its
//      signature verifies against the chain's public key (drand's quicknet: the key pinned in
//      drand-client, whatever the site says),
//   4. the winning number recomputed from the seed, the entries (and the round's randomness)
//      equals the announced one; with several main prizes, every prize's, in order (docs/draws.md
//      "Several prizes"), and as many prizes as the competition lists (or as there are entries),
//   5. with instant wins, once the competition closed: the revealed salt and list hash to the
//      instant-win commitment published when sales opened (contract/instantWins.ts).
// Exits 0 when everything agrees, 1 on any mismatch, 2 when it cannot check (bad id, not drawn).
import { checkRequiredRound, type DrawBeacon, isIndependentBeacon, QUICKNET } from '../contract/beacon';
import { beaconRoundIsValid } from '../contract/beaconVerify';
import { computeDrawPrizes, drawCommitment } from '../contract/draw';
import { verifyInstantWinReveal } from '../contract/instantWins';
import { type MainPrize, ordinal, type PrizeWinner } from '../contract/prizes';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function getJson(url: string): Promise<Answer> {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: res.status, body };
}

type Check = [string, string | number, string | number];

/** The beacon checks of a version-2 draw, and the randomness the derivation then uses. */
async function beaconCheck(
  beacon: DrawBeacon | null | undefined,
): Promise<{ checks: Check[]; randomness?: string }> {
  const what = 'beacon round signature';
  if (!beacon?.randomness || !beacon.signature) return { checks: [[what, 'published', 'missing']] };
  // The round itself: another (later, real) round would sign as well, so its number must follow
  // from the moment the entries became final.
  const required = checkRequiredRound(beacon);
  console.info(`  ${required.ok ? 'OK      ' : 'MISMATCH'} beacon round: ${required.message}`);
  const roundCheck: Check = ['beacon round', beacon.round, required.required ?? 'not computable'];
  const independent = isIndependentBeacon(beacon.chain);
  const key = independent ? QUICKNET.publicKey : beacon.publicKey;
  const round = { round: beacon.round, randomness: beacon.randomness, signature: beacon.signature };
  const valid = await beaconRoundIsValid(key, round);
  console.info(
    `  beacon: round ${beacon.round} of ${independent ? "drand's quicknet (pinned public key)" : `chain ${beacon.chain}, the site's local test beacon: not independent`}`,
  );
  console.info(`  randomness ${beacon.randomness}`);
  return {
    checks: [roundCheck, [what, 'valid', valid ? 'valid' : 'invalid']],
    randomness: beacon.randomness,
  };
}

/** The instant-win reveal against its commitment: null when there is nothing to check (yet). */
async function instantWinCheck(c: {
  title: string;
  instantWinCommitment?: string | null;
  instantWinReveal?: unknown;
}): Promise<boolean | null> {
  if (!c.instantWinCommitment) return null;
  if (!c.instantWinReveal) {
    console.info(`  instant wins: committed ${c.instantWinCommitment}, revealed at the close`);
    return null;
  }
  const ok = await verifyInstantWinReveal(c.instantWinCommitment, c.instantWinReveal);
  const count = (c.instantWinReveal as { list?: unknown[] }).list?.length ?? 0;
  console.info(
    `  ${ok ? 'OK      ' : 'MISMATCH'} instant wins: ${count} numbers and the salt against commitment ${c.instantWinCommitment}`,
  );
  return ok;
}

async function main(): Promise<number> {
  const id = process.argv.slice(2).find((a) => a !== '--');
  if (!id || !/^[1-9]\d*$/.test(id)) {
    console.error('Usage: npm run verify-draw -- <competition id>   (BASE_URL=http://localhost:3000)');
    return 2;
  }
  const base = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
  const competition = await getJson(`${base}/api/competitions/${id}`);
  if (competition.status !== 200) {
    console.error(`Competition ${id}: ${competition.status} ${String(competition.body.message ?? '')}`);
    return 2;
  }
  const c = competition.body as {
    title: string;
    instantWinCommitment?: string | null;
    instantWinReveal?: unknown;
    drawCommitment: string;
    prizes?: MainPrize[];
    drawBeacon?: DrawBeacon | null;
    draw?: {
      version?: 1 | 2;
      seed: string;
      entriesHash: string;
      winningNumber: number;
      winnerName: string;
      drawnAt: string;
      prizes?: PrizeWinner[];
    } | null;
  };
  const instant = await instantWinCheck(c);
  if (!c.draw) {
    console.error(`"${c.title}" has not been drawn yet (commitment ${c.drawCommitment}).`);
    // Closed but not drawn: the instant wins can be checked already.
    return instant === null ? 2 : instant ? 0 : 1;
  }
  const entries = await getJson(`${base}/api/competitions/${id}/draw-entries`);
  if (entries.status !== 200) {
    console.error(`Entries of competition ${id}: ${entries.status} ${String(entries.body.message ?? '')}`);
    return 2;
  }
  const numbers = entries.body.numbers as number[];
  const version = c.draw.version ?? 1;

  console.info(`Competition ${id}: "${c.title}" (draw rule version ${version})`);
  console.info(`  drawn ${c.draw.drawnAt}, winner ${c.draw.winnerName}`);
  console.info(`  seed ${c.draw.seed}`);
  const beacon = version === 2 ? await beaconCheck(c.drawBeacon) : undefined;
  const commitment = await drawCommitment(c.draw.seed);
  // A site from before several prizes publishes none: one prize, the top-level winner.
  const listed = c.prizes?.length ?? 1;
  const multi = await computeDrawPrizes(c.draw.seed, numbers, listed, beacon?.randomness);
  const recomputed = { ...multi.prizes[0]!, entriesHash: multi.entriesHash };
  const published = c.draw.prizes ?? [
    { position: 1, title: c.title, winningNumber: c.draw.winningNumber, winnerName: c.draw.winnerName },
  ];
  const prizeChecks: Check[] =
    listed > 1
      ? [
          ['prizes drawn', published.length, multi.prizes.length],
          ...multi.prizes.map((p): Check => {
            const shown = published.find((w) => w.position === p.position);
            return [
              `${ordinal(p.position)} prize winning number`,
              shown?.winningNumber ?? 'missing',
              p.winningNumber,
            ];
          }),
        ]
      : [];
  const checks: Check[] = [
    ['commitment = SHA-256(seed)', c.drawCommitment, commitment],
    ['entries hash', c.draw.entriesHash, recomputed.entriesHash],
    ['entries hash (entries endpoint)', String(entries.body.entriesHash), recomputed.entriesHash],
    ...(beacon ? beacon.checks : []),
    ['winning number', c.draw.winningNumber, recomputed.winningNumber],
    ...prizeChecks,
  ];
  console.info(
    `  ${numbers.length} entries, winning index ${recomputed.index} (HMAC counter ${recomputed.counter})`,
  );
  let ok = instant !== false;
  for (const [what, published, computed] of checks) {
    const same = published === computed;
    ok &&= same;
    console.info(
      `  ${same ? 'OK      ' : 'MISMATCH'} ${what}: published ${published}, recomputed ${computed}`,
    );
  }
  console.info(
    ok ? 'VERIFIED: the draw matches its commitment and entries.' : 'FAILED: the draw does not verify.',
  );
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`verify-draw: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
