/**
 * The app shell in the Service Worker: the built app is cached (an update's at install, a
 * first install's when its page asks) and served cache-first, so the app opens with the network
 * off. Other requests are not touched.
 */
import type { AppShellManifest } from '../../../build/app-shell-manifest.ts';
import type { CacheShellMessage } from '../protocol/relay-protocol.ts';

/** Every shell cache of this origin starts so; older versions are deleted on activate. */
const CACHE_PREFIX = 'offline-realm-shell-';
/** The one page of the app: navigations to the site root get it. */
const APP_PAGE = 'index.html';

/**
 * Registers the shell's install, activate and fetch listeners. `manifest` is null under
 * `vite dev`, where there is no build to cache.
 */
export function serveAppShell(sw: ServiceWorkerGlobalScope, manifest: AppShellManifest | null): void {
  if (!manifest) return;
  const cacheName = `${CACHE_PREFIX}${manifest.version}`;
  const root = new URL(sw.registration.scope).pathname;
  const shellUrls = new Set(manifest.urls);

  sw.addEventListener('install', (event) => {
    // An update takes over only with its whole shell cached. A first install takes over at
    // once and caches when its page asks (`cache-shell`): the download would compete with the
    // first visit's start for the network and the CPU.
    if (sw.registration.active) event.waitUntil(precache(cacheName, manifest.urls, true));
  });
  sw.addEventListener('message', (event: ExtendableMessageEvent) => {
    const reply = event.ports[0];
    if ((event.data as CacheShellMessage | null)?.type !== 'cache-shell' || !reply) return;
    event.waitUntil(precache(cacheName, manifest.urls, false).then((complete) => reply.postMessage(complete)));
  });
  sw.addEventListener('activate', (event) => event.waitUntil(deleteOlderShells(cacheName)));
  sw.addEventListener('fetch', (event) => {
    const url = shellUrl(event.request, sw.location.origin, root, shellUrls);
    if (url) event.respondWith(cacheFirst(cacheName, url));
  });
}

/** The shell entry that answers `request`, or null when the request is not the shell's. */
function shellUrl(request: Request, origin: string, root: string, shellUrls: Set<string>): string | null {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  if (url.origin !== origin) return null;
  // `/?scenario=demo` is the same page as `/`; the page reads its own query.
  if (request.mode === 'navigate' && url.pathname === root) return `${origin}${root}${APP_PAGE}`;
  return shellUrls.has(url.pathname) ? `${origin}${url.pathname}` : null;
}

/**
 * Fetches what the cache of this version lacks; true when the whole shell is then cached. The
 * version names the content, so an entry present is current: a new Service Worker with an
 * unchanged shell downloads nothing. An update that cannot cache everything fails, and the
 * working version stays; a first install goes on without the missing files (fetched later),
 * since it also brings the relay.
 */
async function precache(cacheName: string, urls: string[], isUpdate: boolean): Promise<boolean> {
  const cache = await caches.open(cacheName);
  const cached = new Set((await cache.keys()).map((request) => new URL(request.url).pathname));
  const missing = urls.filter((url) => !cached.has(url));
  const results = await Promise.allSettled(missing.map((url) => cache.add(new Request(url, { cache: httpCacheMode(url) }))));
  const failed = missing.filter((_url, i) => results[i].status === 'rejected');
  if (failed.length === 0) return true;
  if (isUpdate) throw new Error(`app shell: could not cache ${failed.join(', ')}`);
  console.warn(`app shell: not cached yet: ${failed.join(', ')}`);
  return false;
}

/**
 * Built assets carry their content's hash in their name: the copy the page just loaded, in the
 * HTTP cache, is the right one. Other files (index.html, scenarios) may be stale there.
 */
function httpCacheMode(url: string): RequestCache {
  return url.includes('/assets/') ? 'default' : 'reload';
}

async function deleteOlderShells(current: string): Promise<void> {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== current).map((name) => caches.delete(name)));
}

/** A shell file missing from the cache (a precache cut short) is fetched and kept. */
async function cacheFirst(cacheName: string, url: string): Promise<Response> {
  const cache = await caches.open(cacheName);
  const cached = await cache.match(url);
  if (cached) return cached;
  const response = await fetch(url);
  if (response.ok) await cache.put(url, response.clone());
  return response;
}
