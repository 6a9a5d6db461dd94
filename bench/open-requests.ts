// The requests a bench's HTTP server holds open, by path: a figure can wait until every client
// it depends on is waiting at the server (a long-poll in place) before it times a send.
import type { Server } from 'node:http';

export interface OpenRequests {
  /** Requests whose path starts with `prefix` that have arrived and not been answered yet. */
  count(prefix: string): number;
  /** Resolves once `holds` is true, checked now and each time a request arrives or ends. */
  until(holds: () => boolean): Promise<void>;
}

export function watchOpenRequests(server: Server): OpenRequests {
  const open = new Map<string, number>();
  const checks = new Set<() => void>();
  const changed = (path: string, by: number) => {
    open.set(path, (open.get(path) ?? 0) + by);
    for (const check of [...checks]) check();
  };
  server.on('request', (req, res) => {
    const path = new URL(req.url ?? '/', 'http://bench').pathname;
    changed(path, 1);
    res.once('close', () => changed(path, -1));
  });
  const count = (prefix: string) => [...open].reduce((sum, [path, n]) => (path.startsWith(prefix) ? sum + n : sum), 0);
  const until = (holds: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!holds()) return;
        checks.delete(check);
        resolve();
      };
      checks.add(check);
      check();
    });
  return { count, until };
}
