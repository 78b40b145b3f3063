import { lookup } from 'node:dns/promises';
import net from 'node:net';

// The SSRF rule of web push (docs/security.md#web-push-endpoints): a subscription's endpoint is a
// URL the customer chose, and the server POSTs to it. In production it must name a public
// address: no loopback, private, link-local, CGNAT or unique-local host, by literal or by what
// its name resolves to (checked when subscribing and again before each send, as DNS can change).

const BLOCKED_V4 = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  BLOCKED_V4.addSubnet(prefix, bits, 'ipv4');

const BLOCKED_V6 = new net.BlockList();
for (const [prefix, bits] of [
  ['::', 127], // :: and ::1
  ['::ffff:0:0', 96], // IPv4-mapped: no push service is reached that way
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED_V6.addSubnet(prefix, bits, 'ipv6');

/** Whether an IP address is loopback, private or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return BLOCKED_V4.check(address, 'ipv4');
  if (family !== 6) return true;
  return BLOCKED_V6.check(address, 'ipv6');
}

export type Resolve = (host: string) => Promise<string[]>;

const resolveAll: Resolve = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

/**
 * Whether the endpoint's host is public: every address it resolves to (or the literal itself) is
 * outside the blocked ranges. A host that does not resolve is refused.
 */
export async function isPublicEndpoint(endpoint: string, resolve: Resolve = resolveAll): Promise<boolean> {
  let host: string;
  try {
    host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  if (net.isIP(host)) return !isPrivateAddress(host);
  try {
    const addresses = await resolve(host);
    return addresses.length > 0 && !addresses.some(isPrivateAddress);
  } catch {
    return false;
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | Array<{ address: string; family: number }>,
  family?: number,
) => void;

/**
 * A `lookup` for the sending agent in production: the connection itself refuses a private
 * address, so a name that resolved to a public address when checked and to a private one when
 * sending (DNS rebinding) still reaches nothing inside.
 */
export function publicOnlyLookup(
  hostname: string,
  options: { all?: boolean; family?: number } | number,
  callback: LookupCallback,
): void {
  const opts = typeof options === 'number' ? { family: options } : options;
  lookup(hostname, { all: true, family: opts.family ?? 0 })
    .then((found) => {
      const allowed = found.filter((a) => !isPrivateAddress(a.address));
      if (!allowed.length) {
        const err: NodeJS.ErrnoException = new Error(`Push endpoint ${hostname} is not a public address`);
        err.code = 'EPUSHPRIVATE';
        return callback(err, opts.all ? [] : '', 0);
      }
      if (opts.all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    })
    .catch((err: NodeJS.ErrnoException) => callback(err, opts.all ? [] : '', 0));
}
