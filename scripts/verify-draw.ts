// npm run verify-draw -- <competition id>
//
// Checks a drawn competition from the public API of a running site (BASE_URL, default
// http://localhost:3000) with the same code the server draws with (contract/draw.ts):
//   1. SHA-256(seed) equals the commitment published before sales,
//   2. SHA-256 of the published entries equals the entries hash,
//   3. the winning number recomputed from the seed and the entries equals the announced one.
// Exits 0 when everything agrees, 1 on any mismatch, 2 when it cannot check (bad id, not drawn).
import { computeDraw, drawCommitment } from '../contract/draw';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function getJson(url: string): Promise<Answer> {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: res.status, body };
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
    drawCommitment: string;
    draw?: {
      seed: string;
      entriesHash: string;
      winningNumber: number;
      winnerName: string;
      drawnAt: string;
    } | null;
  };
  if (!c.draw) {
    console.error(`"${c.title}" has not been drawn yet (commitment ${c.drawCommitment}).`);
    return 2;
  }
  const entries = await getJson(`${base}/api/competitions/${id}/draw-entries`);
  if (entries.status !== 200) {
    console.error(`Entries of competition ${id}: ${entries.status} ${String(entries.body.message ?? '')}`);
    return 2;
  }
  const numbers = entries.body.numbers as number[];

  const commitment = await drawCommitment(c.draw.seed);
  const recomputed = await computeDraw(c.draw.seed, numbers);
  const checks: Array<[string, string | number, string | number]> = [
    ['commitment = SHA-256(seed)', c.drawCommitment, commitment],
    ['entries hash', c.draw.entriesHash, recomputed.entriesHash],
    ['entries hash (entries endpoint)', String(entries.body.entriesHash), recomputed.entriesHash],
    ['winning number', c.draw.winningNumber, recomputed.winningNumber],
  ];
  console.info(`Competition ${id}: "${c.title}"`);
  console.info(`  drawn ${c.draw.drawnAt}, winner ${c.draw.winnerName}`);
  console.info(`  seed ${c.draw.seed}`);
  console.info(
    `  ${numbers.length} entries, winning index ${recomputed.index} (HMAC counter ${recomputed.counter})`,
  );
  let ok = true;
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
