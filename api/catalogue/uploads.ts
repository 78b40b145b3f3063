import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { INVALID_FILE_TYPE, UPLOAD_MAX_BYTES, UPLOAD_MAX_DIMENSION } from '../../contract/admin';
import { ERROR_CODES } from '../../contract/errors';
import { badRequest, HttpError } from '../platform/errors';
import { sniffImage } from './imageSniff';

// Uploaded images: checked by their bytes, stored under random names in DATA_DIR/uploads and
// served from /uploads/<name> (see middleware/uploadedFiles.ts).

export const UPLOADS_URL_PREFIX = '/uploads/';
/** What a stored name looks like; nothing else is ever served from the uploads directory. */
export const STORED_NAME = /^[a-f0-9]{32}\.(png|jpg|gif|webp)$/;

export const uploadsDirOf = (dataDir: string) => path.join(dataDir, 'uploads');
/** Where the multipart parser streams a file before it is checked (same disk: rename is atomic). */
export const incomingDirOf = (dataDir: string) => path.join(uploadsDirOf(dataDir), '.incoming');

export const invalidFileType = () =>
  new HttpError(415, ERROR_CODES.unsupportedType, INVALID_FILE_TYPE, {
    hint: 'Please select a valid image file (PNG, JPEG, JPG, GIF, WEBP)',
  });

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
    const name = `${randomBytes(16).toString('hex')}.${image.ext}`;
    await fs.rename(tempPath, path.join(uploadsDirOf(dataDir), name));
    return `${UPLOADS_URL_PREFIX}${name}`;
  } finally {
    await fs.rm(tempPath, { force: true });
  }
}
