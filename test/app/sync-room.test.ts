import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import { consentQuestion } from '../../src/browser-host/page/hub-link.ts';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { api, goTo, messageWithText, newProfile, send, waitAppReady } from './chat-browser.ts';
import type { CuttableProxy } from './cuttable-proxy.ts';
import { type HubUser, hubIdOf, logInOnHub, MARK, OLIVIA, openInNewProfile, shownIds, startTrainingRoom, type TrainingRoom, waitForSync } from './trainee.ts';

/**
 * The training room (issue 11): a hub serving the built app, two trainees' browsers (two
 * profiles) made replicas by the printed link, each reaching the hub through a proxy the test
 * cuts as the room's network would drop.
 */

const TOPIC = '#narrow/channel/1-general/topic/training';
/** An 8x8 red PNG. */
const RED_SQUARE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR42mP4z8CAFTEMLQkAKP8/wc53yE8AAAAASUVORK5CYII=',
  'base64',
);
/** Online, a message reaches the other trainee well within this (it takes well under a second on an idle machine). */
const DELIVERY_MS = 5_000;
/** How often the app says "start" again while its user keeps typing (upstream's wait period). */
const TYPING_START_EVERY_MS = 10_000;

let hub: Engine;
let proxyA: CuttableProxy;
let proxyB: CuttableProxy;
let browser: Browser;
let room: TrainingRoom;

beforeAll(async () => {
  room = await startTrainingRoom(inject('appDir'));
  ({ hub, proxyA, proxyB, browser } = room);
});
afterAll(() => room?.close());

/** A trainee opens the trainer's link in a fresh profile and logs in with their own credentials on the hub. */
async function trainee(proxy: CuttableProxy, user: HubUser): Promise<Page> {
  const page = await openInNewProfile(browser, `${proxy.url}/?sync=${proxy.url}${TOPIC}`);
  await logInOnHub(page, user);
  return page;
}

describe('a training room synced through a hub', () => {
  let a: Page;
  let b: Page;
  beforeAll(async () => {
    [a, b] = await Promise.all([trainee(proxyA, MARK), trainee(proxyB, OLIVIA)]);
  });

  test('brings a message sent in one trainee\'s browser to the other\'s within seconds', async () => {
    await send(a, 'hello from A');
    await messageWithText(b, 'hello from A').waitFor({ timeout: DELIVERY_MS });
    const id = await hubIdOf(hub, 'hello from A');
    expect(await shownIds(b, 'hello from A')).toEqual([id]);
    await waitForSync(a, 'online');
    // The hub's id reaches the sender's page by an event after its push is answered (its own
    // message pulled back): online does not mean it has arrived yet.
    await a.waitForFunction((hubId) => document.querySelectorAll(`[data-message-id="${hubId}"]`).length === 1, id);
    expect(await shownIds(a, 'hello from A')).toEqual([id]);
  });

  test('shows one trainee typing in the other\'s browser, through the hub', async () => {
    // A typing notice is ephemeral (never retried, and the app sends "start" once per 10 s): it
    // reaches B only while B's replica waits at the hub with its relay open, as it does at rest.
    const olivia = (await hub.db.users.toArray()).find((user) => user.email === OLIVIA.email)!;
    const relayOpen = () => [...hub.queues.queuesOf(olivia.id)].some((queue) => queue.eventTypes?.has('typing') && queue.waiter !== null);
    await expect.poll(relayOpen, { timeout: DELIVERY_MS }).toBe(true);
    await a.bringToFront();
    const box = a.getByRole('textbox', { name: 'Message', exact: true });
    const notice = b.getByText('Mark Member is typing…');
    // Keys keep coming, as when a person types (a pause of 5 s would send "stop"), until B shows it.
    // Typing is ephemeral: a notice lost on a busy machine is made good by the app's next "start",
    // 10 s later (upstream's wait period), so the budget covers one of those as well.
    const started = Date.now();
    while (!(await notice.isVisible())) {
      expect(Date.now() - started).toBeLessThan(TYPING_START_EVERY_MS + DELIVERY_MS * 2);
      await box.press('a');
      await notice.waitFor({ timeout: 1000 }).catch(() => undefined);
    }
    await box.fill('');
  });

  test('creates a channel through the hub while online, with the hub\'s id, and shows it in the trainee\'s sidebar', async () => {
    const created = await api(a, MARK.auth, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'breakout' }] });
    const mark = (await hub.db.users.toArray()).find((user) => user.email === MARK.email)!;
    expect(created).toMatchObject({ result: 'success', subscribed: { [mark.id]: ['breakout'] }, already_subscribed: {} });
    const onHub = (await hub.db.channels.toArray()).find((channel) => channel.name === 'breakout');
    expect(onHub).toBeDefined();
    await a.getByRole('navigation', { name: 'Channels and conversations' }).getByRole('link', { name: /breakout/ }).waitFor({ timeout: DELIVERY_MS });
    // The channel on the replica is the hub's, with the hub's id.
    const mine = await api(a, MARK.auth, 'GET', '/users/me/subscriptions');
    expect((mine.subscriptions as { name: string; stream_id: number }[]).find((sub) => sub.name === 'breakout')?.stream_id).toBe(onHub!.id);
  });

  test('shows a trainee the earlier conversation of a channel they have not joined, as the hub shows it', async () => {
    const text = 'breakout plans before anyone joined';
    const sent = await api(a, MARK.auth, 'POST', '/messages', { type: 'stream', to: 'breakout', topic: 'plans', content: text });
    expect(sent.result).toBe('success');
    const channel = (await hub.db.channels.toArray()).find((c) => c.name === 'breakout')!;
    // B never received it (not subscribed): it reaches B's replica as the channel's history, which
    // tells B's app no event (a hub's client hears nothing of it either), so B opens the channel once it is there.
    const narrow = [{ operator: 'channel', operand: channel.id }];
    const held = async () => (await api(b, OLIVIA.auth, 'GET', '/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow })).messages.map((m: { id: number }) => m.id);
    await expect.poll(() => hubIdOf(hub, text), { timeout: DELIVERY_MS }).toBeDefined();
    const id = (await hubIdOf(hub, text))!;
    await expect.poll(held, { timeout: DELIVERY_MS }).toContain(id);
    await b.bringToFront();
    await goTo(b, `#narrow/channel/${channel.id}-breakout`);
    try {
      await expect.poll(() => shownIds(b, text), { timeout: DELIVERY_MS }).toEqual([id]);
    } finally {
      await goTo(b, TOPIC);
    }
  });

  test('keeps a trainee\'s app open while a setting changed in it goes through the hub and comes back, with no new registration', async () => {
    const registrations: string[] = [];
    const count = (request: { method(): string; url(): string }) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/register') registrations.push(request.url());
    };
    a.on('request', count);
    try {
      await a.getByRole('button', { name: 'Menu for Mark Member' }).click();
      await a.getByRole('menuitem', { name: 'Settings' }).click();
      await a.getByLabel('Theme').selectOption({ label: 'Dark' });
      await a.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      const mark = (await hub.db.users.toArray()).find((user) => user.email === MARK.email)!;
      await expect.poll(async () => (await hub.db.users.get(mark.id))?.settings.color_scheme, { timeout: DELIVERY_MS }).toBe(2);
      await waitForSync(a, 'online');
      expect(await a.getByLabel('Theme').inputValue()).toBe('2');
      // Before the hub's event came back as a table refresh, a resync closed the app's queue and it registered again.
      expect(registrations).toEqual([]);
      a.off('request', count);
      // The replica holds the hub's row.
      await expect.poll(async () => (await api(a, MARK.auth, 'POST', '/register', { fetch_event_types: ['user_settings'] })).user_settings.color_scheme, { timeout: DELIVERY_MS }).toBe(2);
      await a.getByLabel('Theme').selectOption({ label: 'Automatic (follow the system)' });
      await a.waitForFunction(() => document.documentElement.dataset.theme === undefined);
      await a.keyboard.press('Escape');
    } finally {
      a.off('request', count);
    }
  });

  test('carries an image a trainee attaches in their browser through the hub to the other trainee\'s browser', async () => {
    await a.bringToFront();
    const chooser = a.waitForEvent('filechooser');
    await a.getByRole('button', { name: 'Upload files' }).click();
    await (await chooser).setFiles({ name: 'red-square.png', mimeType: 'image/png', buffer: RED_SQUARE_PNG });
    const box = a.getByRole('textbox', { name: 'Message', exact: true });
    await expect.poll(() => box.inputValue(), { timeout: DELIVERY_MS }).toMatch(/\[red-square\.png\]\(\/user_uploads\/.+\)/);
    await box.press('Control+Enter');
    // The hub holds the file and claimed it for its message; B's browser, which never had it, shows it.
    const attachment = (await hub.db.attachments.toArray()).find((row) => row.file_name === 'red-square.png');
    expect(attachment?.size).toBe(RED_SQUARE_PNG.byteLength);
    const image = b.locator('img[src*="red-square.png"]');
    await image.waitFor({ timeout: DELIVERY_MS });
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: DELIVERY_MS }).toBe(8);
    await expect.poll(async () => (await hub.db.attachments.get(attachment!.id))?.message_ids.length, { timeout: DELIVERY_MS }).toBe(1);
  });

  test('keeps a trainee sending while the network is cut, across a reload, and converges with no duplicate once it is back', async () => {
    // The app must open with the hub out of reach.
    await a.waitForFunction(() => document.documentElement.dataset.shell === 'cached');
    proxyA.cut();
    await send(a, 'written offline');
    await messageWithText(a, 'written offline').waitFor();
    const [provisional] = await shownIds(a, 'written offline');
    expect(provisional).toBeGreaterThanOrEqual(PROVISIONAL_ID_BASE);
    await waitForSync(a, 'offline');
    const status = await api(a, MARK.auth, 'GET', '/offline_realm/sync');
    expect(status).toMatchObject({ result: 'success', status: 'offline', pending_message_ids: [provisional], refusals: [] });
    // The send, and the read flag the app set on showing it.
    expect(status.pending).toBeGreaterThanOrEqual(1);
    expect(await hubIdOf(hub, 'written offline')).toBeUndefined();
    // The app shows it: the message marked pending, the indicator the hub out of reach.
    await messageWithText(a, 'written offline').locator('.pending-marker', { hasText: 'pending' }).waitFor();
    const indicator = a.locator('.server-indicator');
    await a.waitForFunction(() => document.querySelector('.server-indicator')?.getAttribute('data-state') === 'offline');
    expect(await indicator.textContent()).toMatch(/hub offline, \d+ pending/);

    await a.reload();
    await waitAppReady(a);
    await messageWithText(a, 'written offline').waitFor();
    await waitForSync(a, 'offline');

    // B chats on meanwhile, online.
    await send(b, 'B meanwhile');
    await messageWithText(b, 'B meanwhile').waitFor();

    proxyA.restore();
    await messageWithText(b, 'written offline').waitFor();
    await messageWithText(a, 'B meanwhile').waitFor();
    await waitForSync(a, 'online');
    const final = await hubIdOf(hub, 'written offline');
    expect(final).toBeLessThan(PROVISIONAL_ID_BASE);
    await a.waitForFunction((id) => document.querySelectorAll(`[data-message-id="${id}"]`).length === 1, final);
    expect(await shownIds(a, 'written offline')).toEqual([final]);
    expect(await shownIds(b, 'written offline')).toEqual([final]);
    await waitForSync(b, 'online');
    // All three agree: the topic's messages, ids and order on the hub and in both browsers.
    const onHub = (await hub.db.messages.toArray()).filter((message) => message.topic === 'training').map((message) => message.id);
    await b.waitForFunction((ids) => JSON.stringify([...document.querySelectorAll('[data-message-id]')].map((row) => Number((row as HTMLElement).dataset.messageId))) === JSON.stringify(ids), onHub);
    await a.waitForFunction((ids) => JSON.stringify([...document.querySelectorAll('[data-message-id]')].map((row) => Number((row as HTMLElement).dataset.messageId))) === JSON.stringify(ids), onHub);
    await a.waitForFunction(() => document.querySelector('.server-indicator')?.textContent?.includes('synced'));
    expect(await a.locator('.pending-marker').count()).toBe(0);
  });

  test('tells a trainee, with the hub\'s words, that a change made offline was refused, undoes it, and gives the text back', async () => {
    proxyA.cut();
    await send(a, 'refused later');
    await messageWithText(a, 'refused later').waitFor();
    await waitForSync(a, 'offline');
    // Meanwhile, on the hub, the channel is archived: the send can no longer be made there.
    const archived = await hub.handle(
      new Request(`http://hub.test/api/v1/streams/1`, { method: 'DELETE', headers: { Authorization: `Basic ${btoa('olivia@zulip.test:OwnerKey000000000000000000000001')}` } }),
    );
    expect(archived.status).toBe(200);

    proxyA.restore();
    const notice = a.getByRole('alert').filter({ hasText: 'The hub refused a change made offline (POST /messages)' });
    await notice.waitFor();
    await messageWithText(a, 'refused later').waitFor({ state: 'detached' });
    expect(await hubIdOf(hub, 'refused later')).toBeUndefined();
    const status = await api(a, MARK.auth, 'GET', '/offline_realm/sync');
    expect(status.refusals).toEqual([expect.objectContaining({ method: 'POST', path: '/messages' })]);
    expect(await notice.textContent()).toBe(
      `The hub refused a change made offline (POST /messages), so it was undone: ${status.refusals[0].msg} Its text is back in the compose box.`,
    );
    // Not lost: the text the trainee wrote is back in the box, as upstream keeps a failed send.
    const box = a.getByRole('textbox', { name: 'Message', exact: true });
    await expect(box.inputValue()).resolves.toBe('refused later');

    // With other text in the box, a refused send's text goes to the draft of its own conversation.
    await goTo(a, '#narrow/channel/2-design/topic/sketches');
    proxyA.cut();
    await send(a, 'refused into a draft');
    await waitForSync(a, 'offline');
    await goTo(a, `#narrow/dm/${(await hub.db.users.toArray()).find((user) => user.email === OLIVIA.email)!.id}-Olivia`);
    await box.fill('half a thought');
    const archivedDesign = await hub.handle(
      new Request(`http://hub.test/api/v1/streams/2`, { method: 'DELETE', headers: { Authorization: `Basic ${btoa('olivia@zulip.test:OwnerKey000000000000000000000001')}` } }),
    );
    expect(archivedDesign.status).toBe(200);
    proxyA.restore();
    await a.getByRole('alert').filter({ hasText: 'Its text is kept as the draft of #design › sketches.' }).waitFor();
    await expect(box.inputValue()).resolves.toBe('half a thought');
    await box.fill('');
    await goTo(a, '#narrow/channel/2-design/topic/sketches');
    await expect.poll(() => box.inputValue(), { timeout: DELIVERY_MS }).toBe('refused into a draft');
    await box.fill('');
  });

  test('asks before replacing a browser\'s own chat with the hub\'s, and keeps it when refused', async () => {
    const page = await (await newProfile(browser)).newPage();
    await page.goto(`${proxyB.url}/`);
    await waitAppReady(page);
    const demoAccounts = page.getByRole('button', { name: /^Log in as / });
    await demoAccounts.first().waitFor();
    const questions: string[] = [];

    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${proxyB.url}/?sync=${proxyB.url}`);
    await waitAppReady(page);
    expect(questions).toEqual([consentQuestion(proxyB.url)]);
    expect(page.url()).toBe(`${proxyB.url}/`);
    expect(await page.evaluate(() => document.documentElement.dataset.sync)).toBeUndefined();
    expect(await demoAccounts.count()).toBeGreaterThan(0);

    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.accept();
    });
    await page.goto(`${proxyB.url}/?sync=${proxyB.url}`);
    await waitAppReady(page);
    expect(questions).toHaveLength(2);
    expect(await demoAccounts.count()).toBe(0);
    await page.getByLabel('Email').fill(MARK.email);
    await page.getByLabel('Password').fill(MARK.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await waitForSync(page, 'online');
  });
});
