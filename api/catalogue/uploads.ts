import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import {
  INVALID_FILE_TYPE,
  UPLOAD_MAX_BYTES,
  UPLOAD_MAX_DIMENSION,
  UPLOAD_MAX_PIXELS,
} from '../../contract/admin';
import { ERROR_CODES } from '../../contract/errors';
import { VARIANT_FORMATS, type VariantFormat, variantWidths } from '../../contract/images';
import { badRequest, HttpError } from '../platform/errors';
import { type SniffedImage, sniffImage } from './imageSniff';

// Uploaded images: checked by their bytes, stored under random names in DATA_DIR/uploads and
// served from /uploads/<name> (see uploadedFiles.ts). JPEG, PNG and WebP are re-encoded with
// sharp: turned upright from their EXIF orientation and stripped of all metadata (no camera
// GPS is ever served), with AVIF and WebP variants beside them (contract/images.ts names them).
// GIFs are kept byte for byte (they may be animated) and have no variants.

export const UPLOADS_URL_PREFIX = '/uploads/';
/**
 * What a stored name looks like; nothing else is ever served from the uploads directory:
 * an original from before variants or a GIF (`<hex>.<ext>`), an original with its size
 * (`<hex>-<W>x<H>.<ext>`), or one of its variants (`<hex>-<W>x<H>-<w>w.<avif|webp>`).
 */
export const STORED_NAME =
  /^[a-f0-9]{32}(\.(png|jpg|gif|webp)|-[1-9]\d{0,4}x[1-9]\d{0,4}(\.(png|jpg|webp)|-[1-9]\d{0,4}w\.(avif|webp)))$/;

export const uploadsDirOf = (dataDir: string) => path.join(dataDir, 'uploads');
/** Where the multipart parser streams a file before it is checked (same disk: rename is atomic). */
export const incomingDirOf = (dataDir: string) => path.join(uploadsDirOf(dataDir), '.incoming');

export const invalidFileType = () =>
  new HttpError(415, ERROR_CODES.unsupportedType, INVALID_FILE_TYPE, {
    hint: 'Please select a valid image file (PNG, JPEG, JPG, GIF, WEBP)',
  });

const tooManyPixels = (width: number, height: number) =>
  badRequest(
    `The image has too many pixels (${width.toLocaleString('en-GB')} × ${height.toLocaleString('en-GB')}); the most is ${(UPLOAD_MAX_PIXELS / 1e6).toLocaleString('en-GB')} megapixels.`,
  );

// One image at a time on one libvips thread: an upload is rare, and this bounds the memory and
// CPU an admin's upload (or a hostile file) can take from the ticket-selling work beside it.
sharp.concurrency(1);
sharp.cache(false);
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

/** The original, re-encoded in its own format (no metadata: sharp keeps none unless asked). */
function encodeOriginal(image: Sharp, ext: SniffedImage['ext']) {
  if (ext === 'jpg') return image.jpeg({ quality: 90 });
  if (ext === 'webp') return image.webp({ quality: 90 });
  return image.png();
}

const encodeVariant = (image: Sharp, format: VariantFormat) =>
  // Effort 2: AVIF's default (4) costs several times the CPU for a few percent of bytes.
  format === 'avif' ? image.avif({ quality: 55, effort: 2 }) : image.webp({ quality: 78 });

/**
 * Writes the upright, stripped original and its variants as temporary files, then renames them
 * into place, variants first: once the original's URL exists, every variant it implies does.
 * Returns the original's stored name.
 */
async function storeWithVariants(tempPath: string, ext: SniffedImage['ext'], dataDir: string) {
  const incoming = incomingDirOf(dataDir);
  const id = randomBytes(16).toString('hex');
  const written: Array<{ temp: string; name: string }> = [];
  const placed: string[] = [];
  try {
    // limitInputPixels is the backstop for a header the sniffer read differently from libvips.
    const source = sharp(tempPath, { limitInputPixels: UPLOAD_MAX_PIXELS, failOn: 'error' }).autoOrient();
    const originalTemp = path.join(incoming, `${id}.original.${ext}`);
    const { width, height } = await encodeOriginal(source.clone(), ext).toFile(originalTemp);
    const stem = `${id}-${width}x${height}`;
    written.push({ temp: originalTemp, name: `${stem}.${ext}` });
    for (const w of variantWidths(width)) {
      for (const format of VARIANT_FORMATS) {
        const temp = path.join(incoming, `${id}.${w}.${format}`);
        written.push({ temp, name: `${stem}-${w}w.${format}` });
        await encodeVariant(source.clone().resize({ width: w }), format).toFile(temp);
      }
    }
    const dir = uploadsDirOf(dataDir);
    for (const f of [...written.slice(1), written[0]!]) {
      await fs.rename(f.temp, path.join(dir, f.name));
      placed.push(path.join(dir, f.name));
    }
    return written[0]!.name;
  } catch (err) {
    await Promise.all([...written.map((f) => f.temp), ...placed].map((f) => fs.rm(f, { force: true })));
    if (err instanceof HttpError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(message)) throw badRequest('The image has too many pixels to process.');
    throw badRequest('The image could not be read. Please upload an undamaged PNG, JPEG or WEBP file.');
  }
}

/**
 * Checks a freshly received file and moves it into place under a random name; the temporary
 * file is removed whatever happens. Returns the URL it is served at.
 */
export async function storeUploadedImage(tempPath: string, dataDir: string): Promise<string> {
  try {
    const stat = await fs.stat(tempPath);
    if (stat.size > UPLOAD_MAX_BYTES)
      throw new HttpError(413, ERROR_CODES.tooLarge, 'The image is too large.');
    // At most 5 MB, so reading it whole is bounded; JPEG sizes can sit after large metadata.
    const image = sniffImage(await fs.readFile(tempPath));
    if (!image) throw invalidFileType();
    if (
      image.width < 1 ||
      image.height < 1 ||
      image.width > UPLOAD_MAX_DIMENSION ||
      image.height > UPLOAD_MAX_DIMENSION
    ) {
      throw badRequest(
        `Image dimensions must be between 1 and ${UPLOAD_MAX_DIMENSION.toLocaleString('en-GB')} pixels (this one is ${image.width} × ${image.height}).`,
      );
    }
    // Refused from the header, before anything decodes: a few KB of PNG can inflate to gigabytes.
    if (image.width * image.height > UPLOAD_MAX_PIXELS) throw tooManyPixels(image.width, image.height);
    if (image.kind === 'gif') {
      const name = `${randomBytes(16).toString('hex')}.${image.ext}`;
      await fs.rename(tempPath, path.join(uploadsDirOf(dataDir), name));
      return `${UPLOADS_URL_PREFIX}${name}`;
    }
    const name = await oneAtATime(() => storeWithVariants(tempPath, image.ext, dataDir));
    return `${UPLOADS_URL_PREFIX}${name}`;
  } finally {
    await fs.rm(tempPath, { force: true });
  }
}
