import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { commands } from 'vitest/browser';
import { callApi, inTab } from './tabs.ts';

const OLIVIA = 'olivia@lakeside.test:pbGan8CP9oJG8HYYILCxegSkvA8TGKc7';
const origin = inject('appOrigin');

// One visitor (browser profile) for the whole file: the tests run in order on one realm.
describe('a first visit to the app', () => {
  let profile: string;
  let tab: string;
  beforeAll(async () => {
    profile = await commands.openProfile();
  });
  afterAll(async () => {
    await commands.closeProfile(profile);
  });

  test('becomes ready and answers /api/v1/users/me with Basic auth from the in-browser engine', async () => {
    tab = await commands.openTab(profile, `${origin}/`);

    const me = await callApi(tab, { method: 'GET', path: '/users/me', auth: OLIVIA });

    expect(me.status).toBe(200);
    expect(me.contentType).toBe('application/json');
    expect(me.body).toMatchObject({
      result: 'success',
      msg: '',
      email: 'olivia@lakeside.test',
      full_name: 'Olivia Park',
      role: 100,
      is_owner: true,
    });
  });

  test('answers a call without credentials with the engine’s 401 error', async () => {

    const anonymous = await callApi(tab, { method: 'GET', path: '/users/me' });

    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({
      result: 'error',
      msg: 'Missing authorization header for basic auth',
      code: 'UNAUTHORIZED',
    });
  });

  test('logs in with fetch_api_key, sends a message and reads it back', async () => {

    const login = await callApi(tab, {
      method: 'POST',
      path: '/fetch_api_key',
      params: { username: 'marcus@lakeside.test', password: 'marcus-pass' },
    });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ result: 'success', email: 'marcus@lakeside.test', api_key: '31ixqtQ5Vvb44cLyEWHkWV1NXtrMWCJ4' });
    const marcus = `marcus@lakeside.test:${login.body.api_key as string}`;

    const sent = await callApi(tab, {
      method: 'POST',
      path: '/messages',
      auth: marcus,
      params: { type: 'stream', to: 'general', topic: 'from the browser', content: 'Sent through the **Service Worker**' },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ result: 'success', msg: '' });
    expect(sent.body.id).toEqual(expect.any(Number));

    const read = await callApi(tab, {
      method: 'GET',
      path: '/messages',
      auth: marcus,
      params: { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'topic', operand: 'from the browser' }] },
    });
    expect(read.status).toBe(200);
    expect(read.body.messages).toEqual([
      expect.objectContaining({
        id: sent.body.id,
        sender_email: 'marcus@lakeside.test',
        subject: 'from the browser',
        content: '<p>Sent through the <strong>Service Worker</strong></p>',
      }),
    ]);
  });

  test('leaves requests outside /api/v1/ to the web server, not the engine', async () => {

    const answer = await inTab(tab, async () => {
      // Neither API nor app shell: the Service Worker must pass it through untouched, so the
      // preview server's own fallback page answers instead of an engine error JSON.
      const response = await fetch('/api/v2/users/me');
      return { status: response.status, type: response.headers.get('content-type') };
    }, null);

    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^text\/html/);
  });

  test('the server console lists the realm’s users and their demo credentials', async () => {
    const console = await commands.openTab(profile, `${origin}/console.html`);

    const shown = await inTab(console, async () => {
      // The console fills its table right after the server is ready.
      for (let i = 0; i < 100 && !document.querySelector('tbody tr'); i++) await new Promise((r) => setTimeout(r, 50));
      const rows = [...document.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent));
      return { title: document.querySelector('h2')?.textContent, rows };
    }, null);

    expect(shown.title).toBe('Lakeside Labs lakeside.test');
    expect(shown.rows).toHaveLength(14);
    expect(shown.rows[0]).toEqual(['Olivia Park', 'olivia@lakeside.test', 'Owner', 'olivia-pass', 'pbGan8CP9oJG8HYYILCxegSkvA8TGKc7']);
    expect(shown.rows.at(-1)).toEqual(['Build Bot', 'build-bot@lakeside.test', 'Bot', '—', 'YKd7JDTnxYsBaWJ3dKKfjPx0fo3F9GLv']);
    await commands.closeTab(console);
  });

  test('shows a failure for an unknown ?scenario= and leaves the realm as it was', async () => {
    const failed = await commands.startTab(profile, `${origin}/console.html?scenario=no-such-scenario`);

    const shown = await inTab(failed, async () => {
      const root = document.documentElement;
      for (let i = 0; i < 200 && root.dataset.server !== 'failed'; i++) await new Promise((r) => setTimeout(r, 50));
      return { state: root.dataset.server, status: document.querySelector('.status')?.textContent };
    }, null);
    await commands.closeTab(failed);

    expect(shown).toEqual({
      state: 'failed',
      status: 'The server could not start: scenario "no-such-scenario" not found at /scenarios/no-such-scenario.json',
    });
    const earlier = await callApi(tab, {
      method: 'GET',
      path: '/messages',
      auth: OLIVIA,
      params: { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'topic', operand: 'from the browser' }] },
    });
    expect(earlier.body.messages).toHaveLength(1);
  });

  test('takes a hard-reloaded page, which the browser leaves uncontrolled, back under control', async () => {
    await commands.hardReloadTab(tab);

    const me = await callApi(tab, { method: 'GET', path: '/users/me', auth: OLIVIA });

    expect(await inTab(tab, async () => navigator.serviceWorker.controller !== null, null)).toBe(true);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('olivia@lakeside.test');
  });

  test('keeps the realm across a reload, and ?scenario=demo replaces it with a fresh one', async () => {
    const sent = await callApi(tab, {
      method: 'POST',
      path: '/messages',
      auth: OLIVIA,
      params: { type: 'stream', to: 'general', topic: 'persistence', content: 'still here?' },
    });
    const topic = { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'topic', operand: 'persistence' }] };

    await commands.reloadTab(tab);
    const afterReload = await callApi(tab, { method: 'GET', path: '/messages', auth: OLIVIA, params: topic });
    expect((afterReload.body.messages as { id: number }[]).map((m) => m.id)).toEqual([sent.body.id]);

    const fresh = await commands.openTab(profile, `${origin}/?scenario=demo`);
    const afterReplace = await callApi(fresh, { method: 'GET', path: '/messages', auth: OLIVIA, params: topic });
    expect(afterReplace.body.messages).toEqual([]);
    // The parameter is dropped so that reloading the page keeps the realm.
    expect(await inTab(fresh, async () => location.search, null)).toBe('');
  });
});
