import { describe, expect, it } from 'vitest';
import { sniffImage } from '../../api/catalogue/imageSniff';
import { gif, png } from '../support/admin';

/** A JPEG: SOI, an APP0 segment, then a baseline frame header (SOF0) with the size. */
function jpeg(width: number, height: number, appBytes = 16) {
  const app0 = Buffer.alloc(2 + 2 + appBytes);
  app0.writeUInt16BE(0xffe0, 0);
  app0.writeUInt16BE(2 + appBytes, 2);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.alloc(16)]);
}

function webp(chunk: 'VP8 ' | 'VP8L' | 'VP8X', width: number, height: number) {
  const b = Buffer.alloc(40);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(32, 4);
  b.write('WEBP', 8, 'latin1');
  b.write(chunk, 12, 'latin1');
  if (chunk === 'VP8 ') {
    b.set([0x9d, 0x01, 0x2a], 23);
    b.writeUInt16LE(width, 26);
    b.writeUInt16LE(height, 28);
  } else if (chunk === 'VP8L') {
    b[20] = 0x2f;
    b.writeUInt32LE((width - 1) | ((height - 1) << 14), 21);
  } else {
    b.writeUIntLE(width - 1, 24, 3);
    b.writeUIntLE(height - 1, 27, 3);
  }
  return b;
}

describe('sniffImage', () => {
  it('reads the kind and size of each accepted format from its bytes', () => {
    expect(sniffImage(png(3, 2))).toMatchObject({ kind: 'png', ext: 'png', width: 3, height: 2 });
    expect(sniffImage(gif(640, 480))).toMatchObject({
      kind: 'gif',
      mime: 'image/gif',
      width: 640,
      height: 480,
    });
    expect(sniffImage(jpeg(1024, 768, 3000))).toMatchObject({
      kind: 'jpeg',
      ext: 'jpg',
      width: 1024,
      height: 768,
    });
    expect(sniffImage(webp('VP8 ', 300, 200))).toMatchObject({ kind: 'webp', width: 300, height: 200 });
    expect(sniffImage(webp('VP8L', 300, 200))).toMatchObject({ kind: 'webp', width: 300, height: 200 });
    expect(sniffImage(webp('VP8X', 5000, 4000))).toMatchObject({ kind: 'webp', width: 5000, height: 4000 });
  });

  it('recognises nothing else, whatever it is called', () => {
    for (const bytes of [
      Buffer.from('<!doctype html><p>hi</p>'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      Buffer.from('%PDF-1.7'),
      Buffer.alloc(0),
      png().subarray(0, 10), // a truncated PNG has no readable size
      Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2]), // JPEG data before any frame header
    ]) {
      expect(sniffImage(bytes)).toBeUndefined();
    }
  });
});
