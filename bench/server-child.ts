// A server the bench starts as a child process and reaches over loopback: started, its URL read
// from the "listening on URL" line it prints, stopped with SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export interface ServerChild {
  url: string;
  stop(): Promise<void>;
}

const START_DEADLINE_MS = 60_000;

export async function startServerChild(args: readonly string[], env: Record<string, string> = {}): Promise<ServerChild> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await listeningUrl(child);
  return {
    url,
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
