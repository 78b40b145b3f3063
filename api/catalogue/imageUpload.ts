import fs from 'node:fs';
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { NO_IMAGE_SELECTED, UPLOAD_FIELD, UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE } from '../../contract/admin';
import { ERROR_CODES } from '../../contract/errors';
import { badRequest, HttpError } from '../platform/errors';
import { incomingDirOf, storeUploadedImage, uploadsDirOf } from './uploads';

declare module 'koa' {
  interface DefaultState {
    /** Set by imageUpload(): the stored image's URL. */
    uploadedImageUrl?: string;
  }
}

const tooLarge = () => new HttpError(413, ERROR_CODES.tooLarge, UPLOAD_TOO_LARGE);
// Room for the multipart boundaries and part headers around a file at the limit.
const ENVELOPE_BYTES = 64 * 1024;

/**
 * Receives one image in the multipart field `image` (koa-body's formidable), streaming it to a
 * temporary file: the size limit is enforced chunk by chunk, so an oversized body never sits in
 * memory or on disk beyond 5 MB. A declared Content-Length over the limit is refused before any
 * byte is read. Put it after the admin guard, so nobody else can make the server read a body.
 */
export function imageUpload(dataDir: string): Middleware {
  const incoming = incomingDirOf(dataDir);
  fs.mkdirSync(incoming, { recursive: true });
  fs.mkdirSync(uploadsDirOf(dataDir), { recursive: true });
  const parse = koaBody({
    json: false,
    urlencoded: false,
    text: false,
    multipart: true,
    formidable: {
      uploadDir: incoming,
      maxFiles: 1,
      maxFields: 10,
      maxFieldsSize: 16 * 1024,
      maxFileSize: UPLOAD_MAX_BYTES,
      // Checked on every chunk (maxFileSize alone is checked at the end of the part).
      maxTotalFileSize: UPLOAD_MAX_BYTES,
      filter: (part) => part.name === UPLOAD_FIELD,
    },
    onError: (err) => {
      const e = err as { httpCode?: number; code?: number };
      if (e.httpCode === 413 && e.code !== 1015 /* maxFilesExceeded */) throw tooLarge();
      if (e.code === 1015) throw badRequest('Upload one image at a time.');
      throw badRequest('The upload could not be read. Send the image as multipart/form-data.');
    },
  });

  return async (ctx, next) => {
    if (!ctx.is('multipart')) {
      throw new HttpError(
        415,
        ERROR_CODES.unsupportedType,
        `Send the image as multipart/form-data in the field "${UPLOAD_FIELD}".`,
      );
    }
    if (Number(ctx.get('content-length')) > UPLOAD_MAX_BYTES + ENVELOPE_BYTES) {
      // The rest of the body is not worth reading: answer and close the connection.
      ctx.set('Connection', 'close');
      throw tooLarge();
    }
    await parse(ctx, async () => undefined);
    const files = ctx.request.files?.[UPLOAD_FIELD];
    const file = Array.isArray(files) ? files[0] : files;
    if (!file) throw badRequest(NO_IMAGE_SELECTED);
    ctx.state.uploadedImageUrl = await storeUploadedImage(file.filepath, dataDir);
    await next();
  };
}
