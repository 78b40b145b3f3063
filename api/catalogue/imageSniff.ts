// Recognises PNG, JPEG, GIF and WEBP from their bytes (magic numbers), never from a file name or
// a declared Content-Type, and reads the pixel size from the header so absurd images can be
// refused before anything decodes them.

export type ImageKind = 'png' | 'jpeg' | 'gif' | 'webp';

export interface SniffedImage {
  kind: ImageKind;
  /** The stored file's extension and the Content-Type it is served with. */
  ext: 'png' | 'jpg' | 'gif' | 'webp';
  mime: string;
  width: number;
  height: number;
}

const META: Record<ImageKind, { ext: SniffedImage['ext']; mime: string }> = {
  png: { ext: 'png', mime: 'image/png' },
  jpeg: { ext: 'jpg', mime: 'image/jpeg' },
  gif: { ext: 'gif', mime: 'image/gif' },
  webp: { ext: 'webp', mime: 'image/webp' },
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(b: Buffer) {
  // Signature, then the IHDR chunk: length (4), 'IHDR', width (4), height (4), big-endian.
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function gifSize(b: Buffer) {
  if (b.length < 10) return undefined;
  return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

/** Walks the JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegSize(b: Buffer) {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    // Standalone markers carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = b.readUInt16BE(i + 2);
    if (length < 2) return undefined;
    // SOF0-SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // image data before any frame header
    i += 2 + length;
  }
  return undefined;
}

function webpSize(b: Buffer) {
  if (b.length < 30) return undefined;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    // Lossy: a key frame's start code, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return undefined;
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return undefined;
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  }
  return undefined;
}

/** The image's kind and size, or undefined when the bytes are not one of the four formats. */
export function sniffImage(b: Buffer): SniffedImage | undefined {
  let kind: ImageKind | undefined;
  let size: { width: number; height: number } | undefined;
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) {
    kind = 'png';
    size = pngSize(b);
  } else if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    kind = 'jpeg';
    size = jpegSize(b);
  } else if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) {
    kind = 'gif';
    size = gifSize(b);
  } else if (
    b.length >= 12 &&
    b.toString('latin1', 0, 4) === 'RIFF' &&
    b.toString('latin1', 8, 12) === 'WEBP'
  ) {
    kind = 'webp';
    size = webpSize(b);
  }
  if (!kind || !size) return undefined;
  return { kind, ...META[kind], ...size };
}
