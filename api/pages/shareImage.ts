import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { uploadsDirOf } from '../catalogue/uploads';

// The 1200×630 picture a shared link shows (Open Graph's and X's large card): the prize's picture
// cropped to cover it, or, when that picture cannot be read, a card with the site's name and the
// title, so a link never previews without a picture.

export const SHARE_WIDTH = 1200;
export const SHARE_HEIGHT = 630;

/** The file behind a site path: an upload in DATA_DIR/uploads, or an image of the served build. */
export function imageFileOf(url: string | null, dataDir: string, webRoot: string | undefined): string | null {
  if (!url) return null;
  const upload = /^\/uploads\/([A-Za-z0-9_-]+\.[a-z0-9]+)$/.exec(url);
  if (upload) return path.join(uploadsDirOf(dataDir), upload[1]!);
  const image = /^\/images\/([A-Za-z0-9_/-]+\.[a-z0-9]+)$/.exec(url);
  if (image && webRoot && !image[1]!.includes('..')) return path.join(webRoot, 'images', image[1]!);
  return null;
}

const xml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );

function card(siteName: string, title: string): Buffer {
  const line = title.length > 48 ? `${title.slice(0, 47)}…` : title;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_WIDTH}" height="${SHARE_HEIGHT}">` +
      `<rect width="100%" height="100%" fill="#0b2545"/>` +
      `<text x="80" y="260" font-family="sans-serif" font-size="44" fill="#facc15">${xml(siteName)}</text>` +
      `<text x="80" y="360" font-family="sans-serif" font-size="64" font-weight="700" fill="#ffffff">${xml(line)}</text>` +
      `</svg>`,
  );
}

/** A 1200×630 JPEG for a link preview. */
export async function shareImage(file: string | null, siteName: string, title: string): Promise<Buffer> {
  if (file) {
    try {
      const source = await fs.readFile(file);
      return await sharp(source, { limitInputPixels: 40_000_000 })
        .rotate()
        .resize(SHARE_WIDTH, SHARE_HEIGHT, { fit: 'cover', position: 'attention' })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 82, mozjpeg: true })
        .toBuffer();
    } catch {
      // Missing or unreadable: the card below.
    }
  }
  return sharp(card(siteName, title)).jpeg({ quality: 85 }).toBuffer();
}
