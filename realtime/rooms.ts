import { createHash } from 'node:crypto';

// Room names. Private rooms are joined only by the server, from the session read at handshake.
export const userRoom = (userId: number) => `user:${userId}`;
export const guestRoom = (guestId: string) => `session:${guestId}`;
/** Every socket of one browser session; the key is hashed so it never appears in room lists or logs. */
export const sessionKeyRoom = (sessionKey: string) =>
  `sid:${createHash('sha256').update(sessionKey).digest('base64url').slice(0, 22)}`;
export const competitionRoom = (competitionId: number) => `competition:${competitionId}`;
export const isCompetitionRoom = (room: string) => room.startsWith('competition:');
/** The live draw room's viewers (realtime/drawRoomViewers.ts). */
export const drawRoom = (competitionId: number) => `draw-room:${competitionId}`;
/** Admins only: live orders and dashboard counts. Joined at handshake when the user's role is admin. */
export const ADMINS_ROOM = 'admins';
