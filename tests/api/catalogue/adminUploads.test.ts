import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { del, gif, png, put, signedInAdmin, uploadFile } from '../../support/admin';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

const UPLOAD_PATHS = [
  '/api/admin/upload-image',
  '/api/direct-upload',
  '/api/direct-upload/competition-image',
  '/api/uploads/hero-image',
  '/api/direct-upload/hero-image',
];

/**
 * Streams a `totalBytes` multipart body (optionally without Content-Length) from one reused 64 KB
 * chunk, so the test itself holds no large buffer; resolves with the status once the server
 * answers, and stops sending then.
 */
function streamUpload(url: string, client: TestClient, totalBytes: number, declareLength: boolean) {
  const boundary = 'wcpbigupload';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const piece = Buffer.alloc(64 * 1024, 0x41);
  return new Promise<number>((resolve, reject) => {
    const req = http.request(`${url}/api/admin/upload-image`, {
      method: 'POST',
      headers: {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        Cookie: client.cookieHeader,
        'X-CSRF-Token': client.csrfToken!,
        ...(declareLength ? { 'Content-Length': String(head.length + totalBytes + tail.length) } : {}),
      },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    let sent = 0;
    const pump = () => {
      if (answered) return;
      if (sent === 0) req.write(head);
      while (sent < totalBytes && !answered) {
        const n = Math.min(piece.length, totalBytes - sent);
        sent += n;
        if (!req.write(n === piece.length ? piece : piece.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end(tail);
    };
    pump();
  });
}

/**
 * A real decompression bomb: an all-black 1-bit PNG of `side` × `side` pixels, a few KB on the
 * wire and `side`² × 4 bytes once decoded to RGBA.
 */
function pngBomb(side: number) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((Math.ceil(side / 8) + 1) * side); // filter 0, all pixels 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe.skipIf(engineUnavailable())(`image uploads on ${testEngine()}`, () => {
  let server: TestServer;
  let admin: TestClient;
  let uploadsDir: string;
  beforeAll(async () => {
    server = await startTestServer();
    admin = (await signedInAdmin(server.url)).client;
    uploadsDir = path.join(server.database.dataDir, 'uploads');
  });
  afterAll(async () => {
    await server?.stop();
  });

  const stored = () => fs.readdirSync(uploadsDir).filter((f) => f !== '.incoming');
  const incoming = () => fs.readdirSync(path.join(uploadsDir, '.incoming'));

  it('stores a PNG under a random name with its size and serves it with nosniff and a long cache', async () => {
    const image = png(3, 2);
    const res = await uploadFile(admin, '/api/admin/upload-image', {
      filename: 'prize.png',
      contentType: 'image/png',
      data: image,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      success: true,
      imageUrl: expect.stringMatching(/^\/uploads\/[a-f0-9]{32}-3x2\.png$/),
    });
    expect(res.body.imageUrl).not.toContain('prize');
    const served = await fetch(server.url + res.body.imageUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Re-encoded (metadata stripped), the same pixels.
    const pixels = await sharp(Buffer.from(await served.arrayBuffer()))
      .raw()
      .toBuffer();
    expect(pixels.equals(await sharp(image).raw().toBuffer())).toBe(true);
    expect((await fetch(`${server.url}/uploads/../data.sqlite`)).status).toBe(404);
    expect((await fetch(`${server.url}/uploads/${'0'.repeat(32)}.png`)).status).toBe(404);
  });

  it('turns a JPEG upright, strips its EXIF (GPS included) and writes AVIF and WebP variants, never upscaled', async () => {
    // 500 × 1000 pixels stored sideways (EXIF orientation 6: rotate 90° to view), with a GPS fix.
    const photo = await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#c33' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({
        IFD0: { Make: 'PhoneCo', Model: 'Snapper 9' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '50/1 22/1 0/1',
          GPSLongitudeRef: 'W',
          GPSLongitude: '4/1 8/1 0/1',
        },
      })
      .toBuffer();
    const sent = await sharp(photo).metadata();
    expect(sent.orientation).toBe(6);
    expect(sent.exif?.toString('latin1')).toContain('PhoneCo');

    const res = await uploadFile(admin, '/api/admin/upload-image', {
      filename: 'holiday.jpg',
      contentType: 'image/jpeg',
      data: photo,
    });
    expect(res.status, res.text).toBe(201);
    const url: string = res.body.imageUrl;
    // The stored name carries the upright size (contract/images.ts derives the variants from it).
    expect(url).toMatch(/^\/uploads\/[a-f0-9]{32}-500x1000\.jpg$/);

    const original = Buffer.from(await (await fetch(server.url + url)).arrayBuffer());
    const kept = await sharp(original).metadata();
    expect([kept.width, kept.height]).toEqual([500, 1000]);
    expect(kept.exif).toBeUndefined();
    expect(kept.orientation).toBeUndefined();
    expect(original.includes('PhoneCo')).toBe(false);

    const stem = url.replace(/\.jpg$/, '');
    // 400 and the original's own 500: no 800, 1200 or 1600 made up from 500 pixels.
    for (const w of [400, 500]) {
      for (const [format, type] of [
        ['avif', 'image/avif'],
        ['webp', 'image/webp'],
      ] as const) {
        const served = await fetch(`${server.url}${stem}-${w}w.${format}`);
        expect(served.status, `${w} ${format}`).toBe(200);
        expect(served.headers.get('content-type')).toBe(type);
        expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        const bytes = Buffer.from(await served.arrayBuffer());
        const meta = await sharp(bytes).metadata();
        expect([meta.width, meta.height]).toEqual([w, w * 2]);
        expect(meta.exif).toBeUndefined();
        expect(bytes.includes('PhoneCo')).toBe(false);
      }
    }
    expect((await fetch(`${server.url}${stem}-800w.avif`)).status).toBe(404);
    const id = url.slice('/uploads/'.length, '/uploads/'.length + 32);
    expect(
      stored()
        .filter((f) => f.startsWith(id))
        .sort(),
    ).toEqual(
      [
        `${id}-500x1000.jpg`,
        ...[400, 500].flatMap((w) => [`${id}-500x1000-${w}w.avif`, `${id}-500x1000-${w}w.webp`]),
      ].sort(),
    );
    expect(incoming()).toEqual([]);
  });

  it('refuses a decompression bomb with 400 before decoding it, and keeps nothing', async () => {
    const before = stored();
    const bomb = pngBomb(8000); // 64 megapixels in a few KB
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await uploadFile(admin, '/api/admin/upload-image', {
      filename: 'bomb.png',
      contentType: 'image/png',
      data: bomb,
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.message).toBe(
      'The image has too many pixels (8,000 × 8,000); the most is 40 megapixels.',
    );
    expect(stored()).toEqual(before);
    expect(incoming()).toEqual([]);
  });

  it('refuses a file that looks like a PNG but does not decode, and keeps nothing', async () => {
    const before = stored();
    const broken = png(40, 40);
    const res = await uploadFile(admin, '/api/admin/upload-image', {
      filename: 'broken.png',
      contentType: 'image/png',
      data: broken.subarray(0, 40), // the header, then nothing
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.message).toMatch(/could not be read/);
    expect(stored()).toEqual(before);
    expect(incoming()).toEqual([]);
  });

  it('recognises the type from the bytes: a GIF named .png is stored as .gif', async () => {
    for (const p of UPLOAD_PATHS.slice(0, 3)) {
      const res = await uploadFile(admin, p, {
        filename: 'x.png',
        contentType: 'image/png',
        data: gif(10, 10),
      });
      expect(res.status, `${p}: ${res.text}`).toBe(201);
      expect(res.body.imageUrl).toMatch(/\.gif$/);
    }
  });

  it('refuses HTML renamed to .png with 415 Invalid file type and keeps nothing', async () => {
    const before = stored().length;
    for (const p of UPLOAD_PATHS) {
      const res = await uploadFile(admin, p, {
        filename: 'cute-cat.png',
        contentType: 'image/png',
        data: Buffer.from('<!doctype html><script>alert(document.cookie)</script>'),
      });
      expect(res.status, p).toBe(415);
      expect(res.body).toMatchObject({ message: 'Invalid file type', code: 'unsupported_media_type' });
    }
    expect(stored()).toHaveLength(before);
    expect(incoming()).toEqual([]);
  });

  it('refuses absurd dimensions, a missing file and a body that is not multipart', async () => {
    const huge = await uploadFile(admin, '/api/admin/upload-image', {
      filename: 'bomb.png',
      contentType: 'image/png',
      data: png(2, 2, { width: 100_000, height: 100_000 }),
    });
    expect(huge.status).toBe(400);
    expect(huge.body.message).toMatch(/^Image dimensions must be between 1 and 10,000 pixels/);
    const noFile = await uploadFile(admin, '/api/admin/upload-image', {
      field: 'other',
      filename: 'a.png',
      contentType: 'image/png',
      data: png(),
    });
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toBe('Please select an image file first');
    const json = await admin.post('/api/admin/upload-image', { image: 'x' });
    expect(json.status).toBe(415);
    expect(incoming()).toEqual([]);
  });

  it('answers a 20 MB upload 413 without holding it in memory, declared or streamed', async () => {
    const big = 20 * 1024 * 1024;
    expect(await streamUpload(server.url, admin, big, true)).toBe(413);
    global.gc?.();
    const before = process.memoryUsage().rss;
    const status = await streamUpload(server.url, admin, big, false);
    const grew = process.memoryUsage().rss - before;
    expect(status).toBe(413);
    // The server (in this process) read at most ~5 MB to a temporary file, not 20 MB into memory.
    expect(grew).toBeLessThan(12 * 1024 * 1024);
    await new Promise((r) => setTimeout(r, 50)); // formidable removes its partial file asynchronously
    expect(incoming()).toEqual([]);
  });

  it('sets the hero image from an upload and resets it to the default', async () => {
    const res = await uploadFile(admin, '/api/uploads/hero-image', {
      filename: 'h.png',
      contentType: 'image/png',
      data: png(),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      success: true,
      imageUrl: expect.stringMatching(/^\/uploads\//),
      isDefault: false,
    });
    expect((await admin.get('/api/admin/hero-image')).body).toEqual({
      imageUrl: res.body.imageUrl,
      isDefault: false,
    });

    const reset = await del(admin, '/api/uploads/hero-image');
    expect(reset.status).toBe(200);
    expect((await admin.get('/api/admin/hero-image')).body).toEqual({
      imageUrl: '/images/hero-default.svg',
      isDefault: true,
    });

    const direct = await uploadFile(admin, '/api/direct-upload/hero-image', {
      filename: 'h.gif',
      contentType: 'image/gif',
      data: gif(5, 5),
    });
    expect(direct.status).toBe(201);
    const set = await put(admin, '/api/admin/hero-image', { imageUrl: res.body.imageUrl });
    expect(set.status, set.text).toBe(200);
    expect((await admin.get('/api/admin/hero-image')).body.imageUrl).toBe(res.body.imageUrl);
    expect(
      (await put(admin, '/api/admin/hero-image', { imageUrl: 'https://evil.example/x.png' })).status,
    ).toBe(400);
    expect((await del(admin, '/api/admin/hero-image')).body).toMatchObject({ isDefault: true });
    const audit = await server.deps.db('auditLog').where({ entityType: 'setting' }).orderBy('id');
    expect(audit.length).toBeGreaterThanOrEqual(4);
  });
});
