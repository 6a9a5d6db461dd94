import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * `serve --app`: the built app (Vite's output) from `dir`, beside the API on the same port, so a
 * trainee needs one address. `GET`/`HEAD` only; `/` is `index.html`; a path outside `dir`, or a
 * file that is not there, is a JSON 404. Hashed assets are cached for good, the rest revalidated
 * (a new build must reach the browsers, `/sw.js` first).
 */
export async function serveAppFile(dir: string, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const file = await findFile(dir, pathname);
  if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
    const body = `${JSON.stringify({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' })}\n`;
    res.writeHead(file ? 405 : 404, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
    return;
  }
  res.writeHead(200, {
    'Content-Type': CONTENT_TYPES[extname(file.path)] ?? 'application/octet-stream',
    'Content-Length': file.size,
    'Cache-Control': pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  await pipeline(createReadStream(file.path), res);
}

async function findFile(dir: string, pathname: string): Promise<{ path: string; size: number } | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const path = join(dir, decoded);
  const inside = relative(dir, path);
  if (inside === '' || inside.startsWith('..') || inside.split(sep).includes('..')) return null;
  const info = await stat(path).catch(() => null);
  return info?.isFile() ? { path, size: info.size } : null;
}
