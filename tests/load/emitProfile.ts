// Profiles of a fan-out server over its emit window only (the first event to the last), so the
// servers compared are profiled over the same work, without their connection phase:
// - BENCH_EMIT_PROFILE_DIR=dir: V8's CPU profile (JavaScript only; a sample taken while the
//   process waits for a core counts where it stopped, so on a busy machine system calls look long);
// - BENCH_EMIT_PERF_DIR=dir: `perf record` of the process, on-CPU samples only, kernel included
//   (with BENCH_SERVER_NODE_ARGS="--perf-basic-prof" for JavaScript names). Needs perf.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

export async function profileEmit<T>(name: string, work: () => Promise<T>): Promise<T> {
  const perfDir = process.env.BENCH_EMIT_PERF_DIR;
  if (perfDir) {
    fs.mkdirSync(perfDir, { recursive: true });
    const output = path.join(perfDir, `${name}-${process.pid}.data`);
    const args = ['record', '-e', 'cpu-clock', '-F', '997', '-g', '-p', String(process.pid), '-o', output];
    const perf = spawn('perf', args, { stdio: 'ignore' });
    // perf needs a moment to attach before the first event.
    await new Promise((r) => setTimeout(r, 300));
    try {
      return await work();
    } finally {
      perf.kill('SIGINT');
      await new Promise((r) => perf.once('exit', r));
    }
  }
  const dir = process.env.BENCH_EMIT_PROFILE_DIR;
  if (!dir) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}
