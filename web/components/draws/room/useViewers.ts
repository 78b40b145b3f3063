import { useEffect, useState } from 'react';
import { getSocket } from '../../../live/socket';

/**
 * This page counts among the draw room's viewers while mounted (joined again after a reconnect),
 * and the live count, as the server sends it at most once a second after a change.
 */
export function useDrawRoomViewers(competitionId: number | undefined): number | null {
  const [viewers, setViewers] = useState<number | null>(null);
  useEffect(() => {
    if (!competitionId) return;
    const socket = getSocket();
    const join = () => socket.emit('draw-room:join', { competitionId }, () => undefined);
    const onViewers = (e: { competitionId: number; viewers: number }) => {
      if (e.competitionId === competitionId) setViewers(e.viewers);
    };
    socket.on('draw-room:viewers', onViewers);
    socket.on('connect', join);
    if (socket.connected) join();
    return () => {
      socket.off('draw-room:viewers', onViewers);
      socket.off('connect', join);
      socket.emit('draw-room:leave', { competitionId });
    };
  }, [competitionId]);
  return viewers;
}
