// Snapshot size: what competition:watch sends for 100,000 numbers against the naive payloads.
// A size, not a timing, so one run is the figure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { listAvailableNumbers } from '../../../api/catalogue/numbers';
import { competitionSnapshot } from '../../../api/tickets/snapshot';
import { encodeBitmap } from '../../../contract/bitmap';
import { migrateLatest, openDatabase } from '../../../db/connection';
import { SNAPSHOT_COMPRESSION } from '../../../realtime/server';
import { pickDistinct, seededRandom } from '../../../server/seeds/random';
import { formatCount, insertCompetition, type SectionResult } from '../harness';

export async function snapshot(): Promise<SectionResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-bench-'));
  const db = openDatabase({ dataDir, databaseUrl: undefined });
  try {
    await migrateLatest(db);
    const id = await insertCompetition(db, 'Snapshot', 100_000);
    const now = Date.now();
    const [orderId] = await db('orders').insert({
      totalPence: 0,
      status: 'completed',
      createdAt: now,
      updatedAt: now,
    });
    // Scattered like real sales: 2,350 sold and 500 held numbers at random (seeded) places.
    const picked = pickDistinct(seededRandom('snapshot-bench'), 100_000, 2850);
    const sold = picked.slice(0, 2350);
    const held = picked.slice(2350);
    const [cartItemId] = await db('cartItems').insert({
      guestId: 'bench',
      competitionId: id,
      quantity: 10,
      selectedNumbers: '[]',
      reservedAt: now,
      expiresAt: now + 600_000,
      createdAt: now,
      updatedAt: now,
    });
    await db.batchInsert(
      'tickets',
      held.map((number) => ({
        competitionId: id,
        number,
        status: 'reserved',
        cartItemId,
        guestId: 'bench',
        expiresAt: now + 600_000,
        createdAt: now,
        updatedAt: now,
      })),
      500,
    );
    await db.batchInsert(
      'tickets',
      sold.map((number) => ({
        competitionId: id,
        number,
        status: 'sold',
        orderId,
        isClaimed: true,
        createdAt: now,
        updatedAt: now,
      })),
      500,
    );
    const snap = await competitionSnapshot(db, id, null);
    const json = Buffer.byteLength(JSON.stringify(snap));
    // What permessage-deflate sends for it, with the server's settings (raw deflate).
    const wire = zlib.deflateRawSync(JSON.stringify(snap), {
      level: SNAPSHOT_COMPRESSION.zlibDeflateOptions.level,
      memLevel: SNAPSHOT_COMPRESSION.zlibDeflateOptions.memLevel,
      windowBits: SNAPSHOT_COMPRESSION.serverMaxWindowBits,
    }).length;
    const available = Buffer.byteLength(JSON.stringify(await listAvailableNumbers(db, id)));
    const allNumbers = Buffer.byteLength(JSON.stringify(Array.from({ length: 100_000 }, (_, i) => i + 1)));
    const oneBitmap = encodeBitmap(100_000, sold).length;
    const markdown = [
      '### Snapshot size for 100,000 numbers (2,350 sold and 500 held, scattered at random)',
      '',
      '| payload | bytes | vs snapshot |',
      '|---|---:|---:|',
      `| competition:watch snapshot on the wire (permessage-deflate) | ${formatCount(wire)} | 1.0x |`,
      `| the same snapshot as JSON before compression (two base64 bitmaps) | ${formatCount(json)} | ${(json / wire).toFixed(1)}x |`,
      `| one bitmap (base64) | ${formatCount(oneBitmap)} | ${(oneBitmap / wire).toFixed(1)}x |`,
      `| baseline: JSON array of the available numbers (GET /available-tickets) | ${formatCount(available)} | ${(available / wire).toFixed(1)}x |`,
      `| baseline: JSON array of all 100,000 numbers | ${formatCount(allNumbers)} | ${(allNumbers / wire).toFixed(1)}x |`,
      '',
    ].join('\n');
    return {
      markdown,
      scenarios: [
        {
          name: 'snapshot-wire-bytes',
          value: wire,
          unit: 'bytes',
          baseline: { name: 'available-numbers-json-bytes', value: available, unit: 'bytes' },
        },
      ],
    };
  } finally {
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
