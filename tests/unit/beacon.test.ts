import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { quicknetClient } from 'drand-client';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createDrawBeacon } from '../../api/draws/beacon/drawBeacon';
import {
  answerLocalBeacon,
  openLocalBeacon,
  startLocalBeaconServer,
} from '../../api/draws/beacon/localBeacon';
import { loadConfig } from '../../api/platform/config';
import {
  checkRequiredRound,
  firstRoundAtOrAfter,
  isIndependentBeacon,
  QUICKNET,
  requiredRound,
  roundTimeMs,
} from '../../contract/beacon';
import { beaconRoundIsValid } from '../../contract/beaconVerify';
import { computeDraw } from '../../contract/draw';
import { verifyDraw } from '../../web/components/draws/verifyDraw';

// The beacon of docs/draws.md "Version 2": real quicknet rounds against the pinned key, the local
// test beacon's signatures and persistence, the round rule and the version-2 derivation's vector.

// Two rounds published by drand's quicknet relays (api.drand.sh), with randomness = SHA-256(signature).
const QUICKNET_1000 = {
  round: 1000,
  signature:
    'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
  randomness: 'fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd',
};
const QUICKNET_32281667 = {
  round: 32281667,
  signature:
    'b0f5ae301358ff87a9d3dd539ed4a07c0148b1ab4f7b61a8ca43c7e9ca7ca9553e4faae9188deb30b2cd1a7f447e3e5b',
  randomness: '4fd2fc55983dbfa3f446d8a0bd56f16cc8c5e76afd1ec154b60d477cbabed13b',
};

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-beacon-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('quicknet rounds (drand-client verification, pinned key)', () => {
  it('accepts real rounds and refuses any altered part', async () => {
    // The pinned values are drand-client's own.
    const client = quicknetClient();
    expect(QUICKNET).toEqual({
      url: client.chain().baseUrl,
      chainHash: client.options.chainVerificationParams?.chainHash,
      publicKey: client.options.chainVerificationParams?.publicKey,
      // drand-client's QUICKNET_CHAIN_INFO (not exported): round 1 at this second, one per 3 s.
      genesisTime: 1692803367,
      period: 3,
    });
    expect(isIndependentBeacon(QUICKNET.chainHash)).toBe(true);
    expect(await beaconRoundIsValid(QUICKNET.publicKey, QUICKNET_1000)).toBe(true);
    expect(await beaconRoundIsValid(QUICKNET.publicKey, QUICKNET_32281667)).toBe(true);
    // Another round number, another round's randomness, or another key: refused.
    expect(await beaconRoundIsValid(QUICKNET.publicKey, { ...QUICKNET_1000, round: 1001 })).toBe(false);
    expect(
      await beaconRoundIsValid(QUICKNET.publicKey, {
        ...QUICKNET_1000,
        randomness: QUICKNET_32281667.randomness,
      }),
    ).toBe(false);
    const local = openLocalBeacon(tempDir(), 3);
    expect(await beaconRoundIsValid(local.info.public_key, QUICKNET_1000)).toBe(false);
  });
});

describe('the round rule', () => {
  const chain = { genesis_time: 1000, period: 3 };
  it('round 1 at genesis, one per period; the first round at or after a moment', () => {
    expect(roundTimeMs(1, chain)).toBe(1_000_000);
    expect(roundTimeMs(5, chain)).toBe(1_012_000);
    expect(firstRoundAtOrAfter(1_012_000, chain)).toBe(5); // exactly at round 5
    expect(firstRoundAtOrAfter(1_012_001, chain)).toBe(6); // just after: the next one
    expect(firstRoundAtOrAfter(0, chain)).toBe(1);
    for (const t of [1_000_500, 1_033_333, 5_000_000]) {
      const r = firstRoundAtOrAfter(t, chain);
      expect(roundTimeMs(r, chain)).toBeGreaterThanOrEqual(t);
      expect(roundTimeMs(r - 1, chain)).toBeLessThan(t);
    }
  });
});

describe('the required round (contract requiredRound, shared by the server and both verifiers)', () => {
  const local = {
    chain: 'ab'.repeat(32),
    dueAt: '',
    publicKey: 'cd'.repeat(96),
    genesisTime: 1000,
    period: 3,
  };
  it('follows from the moment the entries became final and the delay; quicknet on its pinned timing', () => {
    expect(requiredRound(1_010_000, 2000, { genesis_time: 1000, period: 3 })).toBe(5);
    const at = new Date(1_010_000).toISOString();
    expect(checkRequiredRound({ ...local, round: 5, entriesFinalAt: at, delaySeconds: 2 })).toMatchObject({
      ok: true,
      required: 5,
    });
    const later = checkRequiredRound({ ...local, round: 6, entriesFinalAt: at, delaySeconds: 2 });
    expect(later).toEqual({
      ok: false,
      required: 5,
      message: `the draw used round 6, but the round required (entries final at ${at} plus a 2 s delay) is 5`,
    });
    // A quicknet draw is checked on quicknet's own genesis and period, whatever the site publishes.
    const q = { genesis_time: QUICKNET.genesisTime, period: QUICKNET.period };
    const finalAt = new Date(roundTimeMs(1000, q) - 30_000).toISOString();
    expect(
      checkRequiredRound({
        ...local,
        chain: QUICKNET.chainHash,
        round: 1000,
        entriesFinalAt: finalAt,
        delaySeconds: 30,
        genesisTime: 0,
        period: 1,
      }).ok,
    ).toBe(true);
  });
});

describe('the local test beacon', () => {
  it("signs quicknet's way, keeps its key in DATA_DIR, and answers no round before its time", async () => {
    const dir = tempDir();
    const beacon = openLocalBeacon(dir, 1);
    expect(beacon.info.schemeID).toBe('bls-unchained-g1-rfc9380');
    expect(beacon.info.public_key).toMatch(/^[0-9a-f]{192}$/); // G2, compressed
    expect(isIndependentBeacon(beacon.info.hash)).toBe(false);
    const round = beacon.round(1)!;
    expect(round.signature).toMatch(/^[0-9a-f]{96}$/); // G1, compressed
    expect(await beaconRoundIsValid(beacon.info.public_key, round)).toBe(true);

    // After a restart: the same chain, the same signatures.
    const again = openLocalBeacon(dir, 1);
    expect(again.info).toEqual(beacon.info);
    expect(again.round(1)).toEqual(round);
    expect(fs.statSync(path.join(dir, 'draw-beacon-key.json')).mode & 0o777).toBe(0o600);

    const future = firstRoundAtOrAfter(Date.now() + 60_000, beacon.info);
    expect(beacon.round(future)).toBeNull();
    expect(answerLocalBeacon(beacon, `/public/${future}`).status).toBe(425);
    expect(answerLocalBeacon(beacon, '/info')).toEqual({ status: 200, body: beacon.info });
    expect(answerLocalBeacon(beacon, '/public/0').status).toBe(404);
  });
});

describe('waiting for a round', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("the time-based beacon resolves at the round's time, not before", async () => {
    vi.useFakeTimers();
    const beacon = createDrawBeacon(loadConfig({ DATA_DIR: tempDir(), DRAW_BEACON_PERIOD_SECONDS: '1' }));
    const info = beacon.local!.info;
    const round = firstRoundAtOrAfter(Date.now() + 5_000, info);
    const dueAt = roundTimeMs(round, info);
    let out = false;
    const waiting = beacon.waitForRound(round, dueAt).then(() => {
      out = true;
    });
    await vi.advanceTimersByTimeAsync(dueAt - Date.now() - 1);
    expect(out).toBe(false);
    await expect(beacon.fetchRound(round)).rejects.toThrow(/has not been produced yet/);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(out).toBe(true);
    expect((await beacon.fetchRound(round)).round).toBe(round);
    expect(beacon.retryPauseMs).toBe(500);
  });

  it('the on-demand beacon produces a round when asked, signed like the local one, the same chain', async () => {
    const dir = tempDir();
    const beacon = createDrawBeacon(loadConfig({ DATA_DIR: dir, DRAW_BEACON: 'on-demand' }));
    expect(beacon).toMatchObject({ kind: 'on-demand', retryPauseMs: 0 });
    const info = beacon.local!.info;
    const round = firstRoundAtOrAfter(Date.now() + 60_000, info);
    // Not out before it is asked for: a round fixed ahead does not exist yet.
    expect(answerLocalBeacon(beacon.local!, `/public/${round}`).status).toBe(425);
    await expect(beacon.fetchRound(round)).rejects.toThrow(/has not been produced yet/);
    await beacon.waitForRound(round, roundTimeMs(round, info));
    const produced = await beacon.fetchRound(round);
    expect(await beaconRoundIsValid(info.public_key, produced)).toBe(true);
    // The time-based beacon on the same key signs that round identically once its time comes.
    const timed = openLocalBeacon(dir, 3);
    expect(timed.info).toEqual(info);
    expect(timed.produce).toBeUndefined();
    expect(timed.round(round, roundTimeMs(round, info))).toMatchObject(produced);
    expect(answerLocalBeacon(timed, `/produce/${round + 1}`, 'POST').status).toBe(405);
  });

  it('over HTTP, the on-demand beacon server produces the round the server asks for', async () => {
    const server = await startLocalBeaconServer(tempDir(), 1, { onDemand: true });
    try {
      const beacon = createDrawBeacon(
        loadConfig({ DATA_DIR: tempDir(), DRAW_BEACON: 'on-demand', DRAW_BEACON_URL: server.url }),
      );
      expect(beacon.local).toBeUndefined();
      const info = await beacon.info();
      const round = firstRoundAtOrAfter(Date.now() + 60_000, info);
      expect((await fetch(`${server.url}/public/${round}`)).status).toBe(425);
      await beacon.waitForRound(round, roundTimeMs(round, info));
      expect(await beaconRoundIsValid(info.public_key, await beacon.fetchRound(round))).toBe(true);
      expect((await fetch(`${server.url}/public/${round}`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('draw rule version 2 (known vector, Python hashlib/hmac)', () => {
  const seed = '0123456789abcdef'.repeat(4);
  it('keys the HMAC with seed || randomness; version 1 is unchanged', async () => {
    const v2 = await computeDraw(seed, [100, 7, 55, 3, 12], QUICKNET_1000.randomness);
    expect(v2).toEqual({
      entriesHash: 'bdc2beeff308b6dc6313629a4e5f01399b6eafcbbc1e5fc5eaaf72710170d8e0',
      entryCount: 5,
      index: 1, // x = 2879548371, 2879548371 mod 5 = 1
      winningNumber: 7,
      counter: 0,
    });
    const big = await computeDraw(
      seed,
      Array.from({ length: 1000 }, (_, i) => i + 1),
      QUICKNET_1000.randomness,
    );
    expect(big.winningNumber).toBe(160); // x = 3056669159, mod 1000 = 159
    expect((await computeDraw(seed, [100, 7, 55, 3, 12])).winningNumber).toBe(3); // version 1
    await expect(computeDraw(seed, [1], 'not hex')).rejects.toThrow(/beacon randomness/);
  });

  it("the browser's verifier checks the round's signature and the derivation", async () => {
    const quicknet = { genesis_time: QUICKNET.genesisTime, period: QUICKNET.period };
    const published = {
      drawCommitment: '4884fdaafea47c29fea7159d0daddd9c085d6200e1359e85bb81736af6b7c837',
      seed,
      entriesHash: 'bdc2beeff308b6dc6313629a4e5f01399b6eafcbbc1e5fc5eaaf72710170d8e0',
      winningNumber: 7,
      version: 2 as const,
      beacon: {
        chain: QUICKNET.chainHash,
        round: 1000,
        dueAt: new Date(roundTimeMs(1000, quicknet)).toISOString(),
        // A site cannot swap the key: a quicknet round is checked against the pinned one.
        publicKey: 'ab'.repeat(96),
        randomness: QUICKNET_1000.randomness,
        signature: QUICKNET_1000.signature,
        // Round 1000 is the first at or after this moment plus 30 s.
        entriesFinalAt: new Date(roundTimeMs(1000, quicknet) - 30_000).toISOString(),
        delaySeconds: 30,
      },
    };
    const sold = [100, 7, 55, 3, 12];
    const checks = await verifyDraw(published, sold);
    expect(checks.map((c) => [c.key, c.status])).toEqual([
      ['commitment', 'passed'],
      ['entries', 'passed'],
      ['round', 'passed'],
      ['beacon', 'passed'],
      ['winner', 'passed'],
    ]);
    // A later real round, the winner honestly recomputed from it: only the round gives it away.
    const later = await computeDraw(seed, sold, QUICKNET_32281667.randomness);
    const swapped = await verifyDraw(
      {
        ...published,
        winningNumber: later.winningNumber,
        beacon: { ...published.beacon, ...QUICKNET_32281667 },
      },
      sold,
    );
    expect(swapped.filter((c) => c.status === 'failed').map((c) => [c.key, c.published, c.computed])).toEqual(
      [['round', '32281667', '1000']],
    );
    // Without the moment the entries became final, the round cannot be checked: a failure.
    const { entriesFinalAt: _, ...unknownMoment } = published.beacon;
    const unchecked = await verifyDraw({ ...published, beacon: unknownMoment }, sold);
    expect(unchecked.find((c) => c.key === 'round')).toMatchObject({
      status: 'failed',
      computed: 'not computable',
    });
    const forged = await verifyDraw(
      { ...published, beacon: { ...published.beacon, randomness: 'cd'.repeat(32) } },
      sold,
    );
    expect(forged.find((c) => c.key === 'beacon')?.status).toBe('failed');
    const v1Rule = await verifyDraw({ ...published, winningNumber: 3, version: 1 }, sold);
    expect(v1Rule.map((c) => c.status)).toEqual(['passed', 'passed', 'passed']);
  });
});

describe('configuration (docs/configuration.md)', () => {
  const prod = {
    NODE_ENV: 'production',
    SESSION_SECRET: 's'.repeat(40),
    ADMIN_PASSWORD: 'long-enough',
    PAYMENTS_SANDBOX: '1',
  };

  it('drand in production, the local test beacon elsewhere; every variable read and checked', () => {
    expect(loadConfig({}).drawBeacon).toEqual({
      kind: 'local',
      url: undefined,
      delaySeconds: 30,
      periodSeconds: 3,
    });
    expect(loadConfig(prod).drawBeacon.kind).toBe('drand');
    expect(
      loadConfig({
        DRAW_BEACON: 'drand',
        DRAW_BEACON_URL: 'https://drand.cloudflare.com/52db/',
        DRAW_BEACON_DELAY_SECONDS: '5',
        DRAW_BEACON_PERIOD_SECONDS: '1',
      }).drawBeacon,
    ).toEqual({ kind: 'drand', url: 'https://drand.cloudflare.com/52db', delaySeconds: 5, periodSeconds: 1 });
    expect(() => loadConfig({ DRAW_BEACON: 'random.org' })).toThrow(/DRAW_BEACON/);
    // A draw that produces its own round is for tests only.
    expect(loadConfig({ DRAW_BEACON: 'on-demand' }).drawBeacon.kind).toBe('on-demand');
    expect(() => loadConfig({ ...prod, DRAW_BEACON: 'on-demand' })).toThrow(
      /DRAW_BEACON=on-demand .* refused when NODE_ENV=production/,
    );
    expect(() => loadConfig({ DRAW_BEACON_URL: 'ftp://x' })).toThrow(/DRAW_BEACON_URL/);
    expect(() => loadConfig({ DRAW_BEACON_PERIOD_SECONDS: '0' })).toThrow(/DRAW_BEACON_PERIOD_SECONDS/);
  });

  it('zero configuration starts the test beacon in-process, keeping its key in DATA_DIR', () => {
    const dir = tempDir();
    const local = createDrawBeacon(loadConfig({ DATA_DIR: dir }));
    expect(local).toMatchObject({ kind: 'local', delayMs: 30_000 });
    expect(local.local?.info.period).toBe(3);
    expect(fs.existsSync(path.join(dir, 'draw-beacon-key.json'))).toBe(true);
    // drand: nothing local, nothing written.
    const other = tempDir();
    const drand = createDrawBeacon(loadConfig({ ...prod, DATA_DIR: other }));
    expect(drand).toMatchObject({ kind: 'drand', local: undefined });
    expect(fs.readdirSync(other)).toEqual([]);
  });
});
