import type { Knex } from 'knex';
import webpush from 'web-push';
import { createSecretBox } from '../../platform/secretBox';

// The site's VAPID key pair (RFC 8292): VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when set, else one
// made on first start and kept in `push_keys` (one row), so every process signs with the same key
// and a browser's subscription (bound to the public key) outlives restarts.

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const ROW_ID = 1;

interface KeyRow {
  publicKey: string;
  privateKeySealed: string;
}

/**
 * The configured pair, else the stored one, else a new pair stored now. Two processes starting
 * together both insert; the unique id keeps the first and both read it back. A stored key that
 * no longer opens (SESSION_SECRET changed) is replaced, and the subscriptions made with it go:
 * the push services would refuse them.
 */
export async function loadVapidKeys(
  db: Knex,
  sessionSecret: string,
  configured: VapidKeys | undefined,
): Promise<VapidKeys> {
  if (configured) return configured;
  const box = createSecretBox(sessionSecret, 'vapid-private-key');
  const stored = async () =>
    (await db('pushKeys').where({ id: ROW_ID }).first('publicKey', 'privateKeySealed')) as KeyRow | undefined;
  let row = await stored();
  if (row) {
    try {
      return { publicKey: row.publicKey, privateKey: box.open(row.privateKeySealed) };
    } catch {
      await db.transaction(async (trx) => {
        await trx('pushSubscriptions').delete();
        await trx('pushKeys').where({ id: ROW_ID }).delete();
      });
    }
  }
  const made = webpush.generateVAPIDKeys();
  await db('pushKeys')
    .insert({
      id: ROW_ID,
      publicKey: made.publicKey,
      privateKeySealed: box.seal(made.privateKey),
      createdAt: Date.now(),
    })
    .onConflict('id')
    .ignore();
  row = (await stored())!;
  return { publicKey: row.publicKey, privateKey: box.open(row.privateKeySealed) };
}
