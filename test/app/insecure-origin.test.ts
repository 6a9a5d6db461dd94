import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { api, logInAs, messageWithText, newProfile, MARCUS as DEMO_MARCUS, OLIVIA as DEMO_OLIVIA, send, waitAppReady } from './chat-browser.ts';
import type { CuttableProxy } from './cuttable-proxy.ts';
import { type HubUser, hubIdOf, logInOnHub, MARK, OLIVIA, openInNewProfile, shownIds, startTrainingRoom, type TrainingRoom, waitForSync } from './trainee.ts';

/**
 * The training room over plain http (issue 11): the trainer's address on the LAN is no secure
 * context, so the trainees' browsers have no Service Worker and no `crypto.subtle`. Chromium
 * resolves `trainer.test` to this machine, which makes `http://trainer.test:PORT` such an
 * origin (only localhost and 127.0.0.1 count as secure over http).
 */

const TRAINER_HOST = 'trainer.test';
const TOPIC = '#narrow/channel/1-general/topic/training';
const DELIVERY_MS = 5_000;

let hub: Engine;
let proxyA: CuttableProxy;
let proxyB: CuttableProxy;
let browser: Browser;
let room: TrainingRoom;

beforeAll(async () => {
  room = await startTrainingRoom(inject('appDir'), [`--host-resolver-rules=MAP ${TRAINER_HOST} 127.0.0.1`]);
  ({ hub, proxyA, proxyB, browser } = room);
});
afterAll(() => room?.close());

/** The trainer's address as a trainee's browser sees it: a LAN name over plain http, through the proxy the test cuts. */
const trainerOrigin = (proxy: CuttableProxy): string => `http://${TRAINER_HOST}:${new URL(proxy.url).port}`;

/** What the page has of the platforms that need a secure context. */
const platformOf = (page: Page) =>
  page.evaluate(() => ({
    isSecureContext,
    serviceWorker: 'serviceWorker' in navigator,
    subtle: typeof crypto.subtle,
    randomUUID: typeof crypto.randomUUID,
  }));

async function trainee(proxy: CuttableProxy, user: HubUser): Promise<Page> {
  const origin = trainerOrigin(proxy);
  const page = await openInNewProfile(browser, `${origin}/?sync=${origin}${TOPIC}`);
  expect(await platformOf(page)).toEqual({ isSecureContext: false, serviceWorker: false, subtle: 'undefined', randomUUID: 'undefined' });
  expect(await page.evaluate(() => document.documentElement.dataset.server)).toBe('ready');
  await logInOnHub(page, user);
  return page;
}

describe('a training room on a plain-http LAN address', () => {
  let a: Page;
  let b: Page;
  beforeAll(async () => {
    [a, b] = await Promise.all([trainee(proxyA, MARK), trainee(proxyB, OLIVIA)]);
  });

  test('runs each trainee\'s server in the browser without a Service Worker and brings a message to the other trainee', async () => {
    await send(a, 'hello over plain http');
    await messageWithText(b, 'hello over plain http').waitFor({ timeout: DELIVERY_MS });
    const id = await hubIdOf(hub, 'hello over plain http');
    expect(id).toBeLessThan(PROVISIONAL_ID_BASE);
    expect(await shownIds(b, 'hello over plain http')).toEqual([id]);
    await waitForSync(a, 'online');
    // The hub's id reaches the sender's page by an event after its push is answered (its own
    // message pulled back): online does not mean it has arrived yet.
    await a.waitForFunction((hubId) => document.querySelectorAll(`[data-message-id="${hubId}"]`).length === 1, id);
    expect(await shownIds(a, 'hello over plain http')).toEqual([id]);
  });

  test('keeps a trainee sending while the network is cut, the page open, and converges on the hub\'s id once it is back', async () => {
    proxyA.cut();
    await send(a, 'sent on a cut network');
    await messageWithText(a, 'sent on a cut network').waitFor();
    const [provisional] = await shownIds(a, 'sent on a cut network');
    expect(provisional).toBeGreaterThanOrEqual(PROVISIONAL_ID_BASE);
    await waitForSync(a, 'offline');
    // The page's own fetch reaches the engine in the browser, not the network that is cut.
    const status = await api(a, MARK.auth, 'GET', '/offline_realm/sync');
    expect(status).toMatchObject({ result: 'success', status: 'offline', pending_message_ids: [provisional], refusals: [] });
    await messageWithText(a, 'sent on a cut network').locator('.pending-marker', { hasText: 'pending' }).waitFor();
    expect(await hubIdOf(hub, 'sent on a cut network')).toBeUndefined();

    proxyA.restore();
    await messageWithText(b, 'sent on a cut network').waitFor();
    await waitForSync(a, 'online');
    const final = await hubIdOf(hub, 'sent on a cut network');
    expect(final).toBeLessThan(PROVISIONAL_ID_BASE);
    await a.waitForFunction((id) => document.querySelectorAll(`[data-message-id="${id}"]`).length === 1, final);
    expect(await shownIds(a, 'sent on a cut network')).toEqual([final]);
    expect(await shownIds(b, 'sent on a cut network')).toEqual([final]);
    expect(await a.locator('.pending-marker').count()).toBe(0);
  });
});

describe('a first visit to a plain-http LAN address', () => {
  test('serves the demo realm from the browser, logged in by its demo button', async () => {
    const page = await (await newProfile(browser)).newPage();
    await page.goto(`${trainerOrigin(proxyB)}/`);
    await waitAppReady(page);
    expect(await platformOf(page)).toMatchObject({ isSecureContext: false, serviceWorker: false });
    await logInAs(page, 'Olivia Park');
    await page.locator('[data-message-id]').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.sync)).toBeUndefined();
    // The demo realm's account, which the trainer's server does not have: the browser's engine answered.
    expect(await api(page, DEMO_OLIVIA, 'GET', '/users/me')).toMatchObject({ result: 'success', email: 'olivia@lakeside.test', full_name: 'Olivia Park' });
  });

  test('serves the demo realm from a dedicated worker of the tab\'s own where there is no SharedWorker either', async () => {
    const context = await newProfile(browser);
    // As Chrome on Android: no SharedWorker, and on plain http no Web Locks to elect a leader tab.
    await context.addInitScript(() => Reflect.deleteProperty(window, 'SharedWorker'));
    const page = await context.newPage();
    await page.goto(`${trainerOrigin(proxyB)}/`);
    await waitAppReady(page);
    expect(await page.evaluate(() => ({ sharedWorker: 'SharedWorker' in window, locks: 'locks' in navigator }))).toEqual({ sharedWorker: false, locks: false });
    await logInAs(page, 'Marcus Reed');
    await page.locator('[data-message-id]').first().waitFor();
    expect(await api(page, DEMO_MARCUS, 'GET', '/users/me')).toMatchObject({ result: 'success', email: 'marcus@lakeside.test' });
  });
});
