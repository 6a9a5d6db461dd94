import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, goTo, HANNAH, launchBrowser, logInAs, MARCUS, messageWithText, newestInTopic, newProfile, OLIVIA, openChat, send, waitAppReady, WAIT_MS } from './chat-browser.ts';

const TOPIC = '#narrow/channel/2-general/topic/offline.20room';

// One browser profile for the file: after its first visit, each new tab starts in a moment.
let browser: Browser;
let profile: BrowserContext;
beforeAll(async () => {
  browser = await launchBrowser();
  profile = await newProfile(browser);
});
afterAll(async () => {
  await browser.close();
});

/** The sidebar's unread count for a channel (0 when none is shown). */
async function channelUnread(page: Page, name: string): Promise<number> {
  const link = page.locator('.channel-item > a', { has: page.locator('.label', { hasText: new RegExp(`^${name}$`) }) });
  const count = link.locator('.count');
  return (await count.count()) === 0 ? 0 : Number(await count.textContent());
}

/** Marcus sends `content` to #general > `topic`; Olivia's count for #general rises by one. Returns the message's id. */
async function unreadFromMarcus(page: Page, topic: string, content: string, before: number): Promise<number> {
  const sent = await api(page, MARCUS, 'POST', '/messages', { type: 'stream', to: 'general', topic, content });
  await expect.poll(() => channelUnread(page, 'general'), { timeout: WAIT_MS }).toBe(before + 1);
  return sent.id;
}

/** Opens the message's topic: once shown, #general's count is back to `before` and the server has it read. */
async function readInItsTopic(page: Page, topicHash: string, content: string, id: number, before: number): Promise<void> {
  await goTo(page, topicHash);
  await messageWithText(page, content).waitFor();
  await expect.poll(() => channelUnread(page, 'general'), { timeout: WAIT_MS }).toBe(before);
  await expect.poll(async () => ((await api(page, OLIVIA, 'GET', `/messages/${id}`)).message.flags as string[]).includes('read'), { timeout: WAIT_MS }).toBe(true);
}

describe('the chat with the network off', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openChat(profile, `/${TOPIC}`);
    await logInAs(page, 'Olivia Park');
  });
  afterAll(async () => {
    await page.close();
  });

  test('keeps chatting offline, and a reload offline finds everything where it was', async () => {
    // The page says when the Service Worker has cached the app, so that it opens offline.
    await page.waitForFunction(() => document.documentElement.dataset.shell === 'cached');
    await profile.setOffline(true);
    await send(page, 'written with the network off');
    await messageWithText(page, 'written with the network off').waitFor();
    await expect(page.locator('.server-indicator').getAttribute('data-state')).resolves.toBe('offline');

    await page.reload();
    await waitAppReady(page);
    await messageWithText(page, 'written with the network off').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('#general › offline room');
    await profile.setOffline(false);
  });

  test('after the realm is reset from the realm tools, the chat registers again by itself and keeps its view', async () => {
    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
    await page.getByRole('menuitem', { name: /Realm tools/ }).click();
    await page.getByRole('button', { name: 'Reset to “demo”' }).click();
    await page.getByRole('status').filter({ hasText: 'Loaded the scenario “demo”.' }).waitFor();

    // The fresh realm has no message in this topic: the view is refetched for the new queue.
    await page.getByText('No messages here yet.').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('#general › offline room');
    // Live again: a message sent by someone else arrives without a reload.
    const sent = await api(page, MARCUS, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'offline room', content: 'after the reset' });
    expect(sent.result).toBe('success');
    await messageWithText(page, 'after the reset').waitFor();
  });
});

describe('live unread counts', () => {
  test('a message from someone else raises the channel’s count; reading it clears the count and the server marks it read', async () => {
    const page = await openChat(profile, '/#narrow/channel/8-support');
    await logInAs(page, 'Olivia Park');
    const before = await channelUnread(page, 'general');

    const id = await unreadFromMarcus(page, 'count me', 'an unread one', before);
    await readInItsTopic(page, '#narrow/channel/2-general/topic/count.20me', 'an unread one', id, before);
    await page.close();
  });
});

describe('reading in views of part of a conversation', () => {
  test('a message found by a search stays unread, as upstream leaves it, and is read once shown in its topic', async () => {
    const page = await openChat(profile, '/#narrow/channel/8-support');
    await logInAs(page, 'Olivia Park');
    const before = await channelUnread(page, 'general');
    const id = await unreadFromMarcus(page, 'found later', 'a needle in the haystack', before);

    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('needle');
    await search.press('Enter');
    await messageWithText(page, 'a needle in the haystack').waitFor();
    // Two frames after it is drawn, the list has handled what it shows.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await channelUnread(page, 'general')).toBe(before + 1);

    await readInItsTopic(page, '#narrow/channel/2-general/topic/found.20later', 'a needle in the haystack', id, before);
    await page.close();
  });
});

describe('marking a whole view read', () => {
  test('Mark as read in a channel\'s header reads its unread messages, shown or not, and is gone once there are none', async () => {
    const page = await openChat(profile, '/#narrow/channel/8-support');
    await page.setViewportSize({ width: 390, height: 700 });
    await logInAs(page, 'Olivia Park');
    const before = await channelUnread(page, 'general');
    for (let i = 1; i <= 30; i += 1) {
      const sent = await api(page, MARCUS, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'backlog', content: `backlog ${i}` });
      expect(sent.result).toBe('success');
    }
    await expect.poll(() => channelUnread(page, 'general'), { timeout: WAIT_MS }).toBe(before + 30);

    await goTo(page, '#narrow/channel/2-general/topic/backlog');
    const markRead = page.locator('.narrow-title').getByRole('button', { name: 'Mark as read' });
    await markRead.click();
    await markRead.waitFor({ state: 'detached' });
    await expect.poll(() => channelUnread(page, 'general'), { timeout: WAIT_MS }).toBe(before);
    const [newest] = await newestInTopic(page, OLIVIA, 'general', 'backlog', 1);
    expect(newest.content).toBe('<p>backlog 30</p>');
    expect(newest.flags).toContain('read');
    await page.close();
  });
});

describe('the API log panel', () => {
  test('shows this tab’s requests and the events its queue received', async () => {
    const page = await openChat(profile, `/${TOPIC}`);
    await logInAs(page, 'Olivia Park');
    await send(page, 'watch the traffic');
    await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
    await page.getByRole('menuitem', { name: 'API log' }).click();

    const log = page.getByRole('complementary', { name: 'API log' });
    await log.locator('.log-line.app', { hasText: 'POST /messages' }).first().waitFor();
    await log.locator('.log-line.server', { hasText: 'POST /api/v1/messages' }).first().waitFor();
    await log.locator('.log-line.event', { hasText: 'message' }).first().waitFor();
    await page.close();
  });
});

describe('keyboard and phone use', () => {
  test('j and k move the selection, c opens the compose box, Esc leaves it', async () => {
    const page = await openChat(profile, '/#narrow/channel/5-engineering/topic/CI');
    await logInAs(page, 'Sam Okafor');
    await page.locator('[data-message-id]').first().waitFor();
    // A click on nothing that acts (a click on a message would reply to it), so the keys reach the page.
    await page.getByRole('heading', { level: 1 }).click();

    await page.keyboard.press('j');
    const first = await page.locator('.message.selected').getAttribute('data-message-id');
    await page.keyboard.press('j');
    const second = await page.locator('.message.selected').getAttribute('data-message-id');
    expect(Number(second)).toBeGreaterThan(Number(first));
    await page.keyboard.press('k');
    await expect(page.locator('.message.selected').getAttribute('data-message-id')).resolves.toBe(first);

    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await page.keyboard.press('c');
    await expect.poll(focused, { timeout: WAIT_MS }).toBe('Message');
    await page.keyboard.press('Escape');
    await expect.poll(focused, { timeout: WAIT_MS }).not.toBe('Message');
    await page.close();
  });

  test('at 390 px the sidebar is a drawer: it opens from its button and closes on choosing a channel', async () => {
    const page = await openChat(profile);
    await page.setViewportSize({ width: 390, height: 844 });
    await logInAs(page, 'Olivia Park');
    const sidebar = page.getByRole('navigation', { name: 'Channels and conversations' });
    await expect(sidebar.isVisible()).resolves.toBe(false);

    await page.getByRole('button', { name: 'Channels and conversations' }).click();
    await sidebar.getByRole('link', { name: /engineering/ }).click();

    await page.getByRole('heading', { name: '#engineering' }).waitFor();
    await sidebar.waitFor({ state: 'hidden' });
    await page.close();
  });

  test('at 390 px a long name is cut short in the top bar, which keeps one row and room to search', async () => {
    const page = await openChat(profile);
    await page.setViewportSize({ width: 390, height: 844 });
    await logInAs(page, 'Hannah Kim');
    const longName = 'Hannah Kim-Vanderbilt-Montgomery, Head of Platform Engineering';
    await api(page, HANNAH, 'PATCH', '/settings', { full_name: longName });
    const userButton = page.getByRole('button', { name: `Menu for ${longName}` });
    await userButton.waitFor();

    const search = (await page.getByRole('searchbox', { name: 'Search' }).boundingBox())!;
    const bar = (await page.getByRole('banner').boundingBox())!;
    const user = (await userButton.boundingBox())!;
    expect(search.width).toBeGreaterThanOrEqual(80);
    expect(bar.height).toBeLessThan(60);
    expect(user.x + user.width).toBeLessThanOrEqual(390);
    await api(page, HANNAH, 'PATCH', '/settings', { full_name: 'Hannah Kim' });
    await page.close();
  });
});
