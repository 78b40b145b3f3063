import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// Encrypts small secrets kept in the database (two-factor TOTP secrets), so a leaked backup or a
// read-only SQL injection does not hand out the second factor. AES-256-GCM: the tag also detects a
// value altered in the database. Stored as 'v1.<iv>.<tag>.<ciphertext>', base64url parts.

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** A box whose 256-bit key is derived (HKDF-SHA-256) from `keyMaterial`, for one `purpose`. */
export function createSecretBox(keyMaterial: string, purpose: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', keyMaterial, 'wcp-secret-box', purpose, 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined)
        throw new Error('Unknown sealed-secret format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
