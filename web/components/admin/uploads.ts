import * as v from 'valibot';
import { UploadResultSchema } from '../../../contract/admin';
import { ApiError, apiUpload } from '../../api/client';

/** The upload was stored but the answer named no URL: a page may word this its own way. */
export class MissingImageUrlError extends Error {
  constructor() {
    super('Server response missing image URL');
  }
}

/**
 * Sends an image and returns the stored URL, with the spec's upload messages: the server's own,
 * else 'Upload failed with status: N'; an answer without a URL is 'Server response missing image URL'.
 */
export async function uploadForUrl(path: string, file: File): Promise<string> {
  let answer: unknown;
  try {
    answer = await apiUpload<unknown>(path, file);
  } catch (err) {
    if (err instanceof ApiError && !err.serverMessage)
      throw new Error(`Upload failed with status: ${err.status}`);
    throw err;
  }
  const parsed = v.safeParse(UploadResultSchema, answer);
  if (!parsed.success) throw new MissingImageUrlError();
  return parsed.output.imageUrl;
}
