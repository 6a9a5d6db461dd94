import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
};

export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * A plain static file server on 127.0.0.1, as a project without a bundler might use: a URL is
 * served from the folder of the first prefix it starts with (e.g. `/node_modules/`, then `/`);
 * a folder's root gets its index.html, an unknown path 404. No fallback page.
 */
export async function serveStatic(folders: [prefix: string, dir: string][]): Promise<StaticServer> {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const [prefix, dir] = folders.find(([start]) => path.startsWith(start)) ?? ['/', ''];
    const relative = normalize(path.slice(prefix.length) || 'index.html');
    const file = join(dir, relative);
    const found = dir !== '' && !relative.startsWith('..') && (await stat(file).catch(() => null))?.isFile();
    if (!found) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    response.writeHead(200, { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
