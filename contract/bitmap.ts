// Ticket-state bitmaps for snapshots (docs/product.md#realtime): number n is bit ((n - 1) mod 8),
// least significant bit first, of byte floor((n - 1) / 8); bytes base64-encoded with padding.
// 100,000 numbers fit in 12,500 bytes (16,668 characters of base64) instead of ~294 KB of JSON.

export function encodeBitmap(totalTickets: number, numbers: Iterable<number>): string {
  const bytes = new Uint8Array(Math.ceil(totalTickets / 8));
  for (const n of numbers) {
    if (n >= 1 && n <= totalTickets) bytes[(n - 1) >> 3]! |= 1 << ((n - 1) & 7);
  }
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export function decodeBitmap(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export const hasBit = (bytes: Uint8Array, n: number): boolean =>
  n >= 1 && ((bytes[(n - 1) >> 3] ?? 0) & (1 << ((n - 1) & 7))) !== 0;

export function bitmapNumbers(bytes: Uint8Array, totalTickets: number): number[] {
  const out: number[] = [];
  for (let n = 1; n <= totalTickets; n++) if (hasBit(bytes, n)) out.push(n);
  return out;
}
