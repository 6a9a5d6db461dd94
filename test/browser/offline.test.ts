import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { commands } from 'vitest/browser';
import { callApi, inTab } from './tabs.ts';

const OLIVIA = 'olivia@lakeside.test:pbGan8CP9oJG8HYYILCxegSkvA8TGKc7';
const origin = inject('appOrigin');
const OFFLINE_TOPIC = { anchor: 'newest', num_before: 5, num_after: 0, apply_markdown: false, narrow: [{ operator: 'topic', operand: 'offline' }] };

/** The shell caches of the tab's origin, each with the paths it holds. */
function shellCaches(tab: string): Promise<Record<string, string[]>> {
  return inTab(tab, async () => {
    const shells: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const requests = await (await caches.open(name)).keys();
      shells[name] = requests.map((request) => new URL(request.url).pathname).sort();
    }
    return shells;
  }, null);
}

/** Waits for the page's word that the Service Worker has cached the whole app shell. */
function shellCached(tab: string): Promise<void> {
  return inTab(tab, async () => {
    const root = document.documentElement;
    await new Promise<void>((resolve) => {
      const check = () => root.dataset.shell === 'cached' && (observer.disconnect(), resolve());
      const observer = new MutationObserver(check);
      observer.observe(root, { attributes: true, attributeFilter: ['data-shell'] });
      check();
    });
  }, null);
}

// One visitor who loaded the app once, then lost the network: the tests run in order.
describe('the app with the network off', () => {
  let profile: string;
  let tab: string;
  beforeAll(async () => {
    profile = await commands.openProfile();
    tab = await commands.openTab(profile, `${origin}/console.html`);
    await shellCached(tab);
  });
  afterAll(async () => {
    await commands.closeProfile(profile);
  });

  test('has the whole built app cached once the page says `data-shell="cached"`, but not the Service Worker itself', async () => {
    const shells = await shellCaches(tab);

    expect(Object.keys(shells)).toEqual([expect.stringMatching(/^offline-realm-shell-[0-9a-f]{16}$/)]);
    const paths = Object.values(shells)[0];
    expect(paths).toEqual(expect.arrayContaining(['/index.html', '/favicon.svg', '/scenarios/demo.json']));
    // The page's script and style, and the engine's worker bundle, whatever their hashed names.
    expect(paths.filter((path) => /^\/assets\/index-[\w-]+\.js$/.test(path))).toHaveLength(1);
    expect(paths.filter((path) => /^\/assets\/index-[\w-]+\.css$/.test(path))).toHaveLength(1);
    expect(paths.filter((path) => /^\/assets\/engine-worker-[\w-]+\.js$/.test(path))).toHaveLength(1);
    expect(paths).not.toContain('/sw.js');
  });

  test('serves the shell from the cache first, even with the network on', async () => {
    const served = await inTab(tab, async () => {
      const [name] = await caches.keys();
      await (await caches.open(name)).put('/favicon.svg', new Response('the cached copy'));
      return (await fetch('/favicon.svg')).text();
    }, null);

    expect(served).toBe('the cached copy');
  });

  test('shows how much storage the realm uses and whether it is kept', async () => {
    const shown = await inTab(tab, async () => {
      for (let i = 0; i < 100 && !document.querySelector('.storage')?.textContent; i++) await new Promise((r) => setTimeout(r, 50));
      return { text: document.querySelector('.storage')?.textContent, persisted: await navigator.storage.persisted() };
    }, null);

    expect(shown.text).toMatch(/^Storage: [\d.,]+ (byte|kB|MB|GB) used of [\d.,]+ (MB|GB|TB) \(/);
    expect(shown.text).toContain(shown.persisted ? '(persistent)' : '(best effort: the browser may evict it when space runs low)');
  });

  test('keeps answering API requests', async () => {
    await commands.setOffline(profile, true);

    const me = await callApi(tab, { method: 'GET', path: '/users/me', auth: OLIVIA });
    const sent = await callApi(tab, {
      method: 'POST',
      path: '/messages',
      auth: OLIVIA,
      params: { type: 'stream', to: 'general', topic: 'offline', content: 'sent with the network off' },
    });

    expect(me.status).toBe(200);
    expect(me.body.email).toBe('olivia@lakeside.test');
    expect(sent.status).toBe(200);
    expect(sent.body.id).toEqual(expect.any(Number));
  });

  test('reopens the app from the cache on reload, with the realm intact', async () => {
    await commands.reloadTab(tab);

    const read = await callApi(tab, { method: 'GET', path: '/messages', auth: OLIVIA, params: OFFLINE_TOPIC });
    const page = await inTab(tab, async () => {
      for (let i = 0; i < 100 && !document.querySelector('tbody tr'); i++) await new Promise((r) => setTimeout(r, 50));
      return { realm: document.querySelector('h2')?.textContent, users: document.querySelectorAll('tbody tr').length };
    }, null);

    expect((read.body.messages as { content: string }[]).map((m) => m.content)).toEqual(['sent with the network off']);
    expect(page).toEqual({ realm: 'Lakeside Labs lakeside.test', users: 14 });
  });

  test('opens a new tab of the chat app from the cache too', async () => {
    const second = await commands.openTab(profile, `${origin}/`);

    const me = await callApi(second, { method: 'GET', path: '/users/me', auth: OLIVIA });
    await commands.closeTab(second);

    expect(me.body.email).toBe('olivia@lakeside.test');
  });

  test('loads a scenario from the cache: ?scenario=demo replaces the realm offline', async () => {
    const fresh = await commands.openTab(profile, `${origin}/?scenario=demo`);

    const read = await callApi(fresh, { method: 'GET', path: '/messages', auth: OLIVIA, params: OFFLINE_TOPIC });
    await commands.closeTab(fresh);

    expect(read.status).toBe(200);
    expect(read.body.messages).toEqual([]);
  });

  test('leaves a request outside the shell and /api/v1/ to the network, where it fails', async () => {
    const outcome = await inTab(tab, async () => {
      try {
        const response = await fetch('/not-part-of-the-app.txt');
        return `answered ${response.status}`;
      } catch (error) {
        return `failed: ${(error as Error).name}`;
      }
    }, null);

    expect(outcome).toBe('failed: TypeError');
  });

  test('serves the same request from the network again once online', async () => {
    await commands.setOffline(profile, false);

    // vite preview answers unknown paths with the app's page (its SPA fallback).
    const status = await inTab(tab, async () => (await fetch('/not-part-of-the-app.txt')).status, null);

    expect(status).toBe(200);
  });
});

describe('a new version of the app shell', () => {
  test('deletes older shell caches on activate and leaves other caches of the origin alone', async () => {
    const profile = await commands.openProfile();
    const first = await commands.openTab(profile, `${origin}/console.html`);
    await shellCached(first);
    const [current] = Object.keys(await shellCaches(first));
    await inTab(first, async () => {
      await caches.open('offline-realm-shell-0000000000000000');
      await caches.open('some-other-library');
      await (await navigator.serviceWorker.ready).unregister();
    }, null);
    // With its last client gone (the page, then the engine's worker, which outlives it for a
    // while), the unregistered Service Worker goes; the next visit installs anew.
    await commands.closeTab(first);
    await commands.endSharedWorkers(profile);

    const second = await commands.openTab(profile, `${origin}/console.html`);
    await shellCached(second);
    const names = Object.keys(await shellCaches(second)).sort();
    await commands.closeProfile(profile);

    expect(names).toEqual([current, 'some-other-library']);
  });
});
