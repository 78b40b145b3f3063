// The emit window every fan-out server runs for the 'emit' command (server.ts, naiveServer.ts,
// rawWsServer.ts): ticket events at a steady rate, each publish time by version, and the CPU the
// process used meanwhile, so the servers are paced, timed and profiled alike.
import { profileEmit } from './emitProfile';

export interface EmitCommand {
  type: 'emit';
  competitionId: number;
  count: number;
  perSecond: number;
}

export interface TicketPayload {
  competitionId: number;
  version: number;
  numbers: number[];
}

/** Publishes `count` events through `publish` at `perSecond`; answers the 'emitted' message. */
export async function pacedEmit(
  name: string,
  { competitionId, count, perSecond }: EmitCommand,
  publish: (payload: TicketPayload) => void,
) {
  const cpu = process.cpuUsage();
  const published = await profileEmit(name, async () => {
    const times: Record<number, number> = {};
    const started = Date.now();
    for (let version = 1; version <= count; version++) {
      const wait = started + ((version - 1) * 1000) / perSecond - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      times[version] = Date.now();
      publish({ competitionId, version, numbers: [version] });
    }
    return times;
  });
  return { type: 'emitted', published, cpu: process.cpuUsage(cpu) };
}
