// A server the bench starts as a child process and reaches over loopback: started, its URL read
// from the "listening on URL" line it prints, stopped with SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';

export interface ServerChild {
  url: string;
  /** CPU time the child has used so far (user + system), in µs; null where /proc cannot tell (not Linux). */
  cpuMicroseconds(): number | null;
  stop(): Promise<void>;
}

/** /proc/PID/stat counts in clock ticks, USER_HZ: 100 a second on Linux. */
const TICK_MICROSECONDS = 10_000;

const START_DEADLINE_MS = 60_000;

export async function startServerChild(args: readonly string[], env: Record<string, string> = {}): Promise<ServerChild> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await listeningUrl(child);
  return {
    url,
    cpuMicroseconds: () => cpuMicroseconds(child.pid),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let printed = '';
    const timer = setTimeout(() => fail(new Error(`no "listening on" line within ${START_DEADLINE_MS} ms`)), START_DEADLINE_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('exit', (code) => fail(new Error(`server child exited with ${code} before listening: ${printed}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const match = /listening on (\S+)/.exec(printed);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve(match[1].replace(/\/$/, ''));
    });
  });
}

function cpuMicroseconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MICROSECONDS;
  } catch {
    return null;
  }
}
