import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, goTo, launchBrowser, logInAs, MARCUS, newProfile, OLIVIA, openChat, WAIT_MS } from './chat-browser.ts';

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await openChat(await newProfile(browser), '/#inbox');
  await logInAs(page, 'Olivia Park');
});
afterAll(async () => {
  await browser.close();
});

/** Olivia's unread messages of a topic, as the server counts them. */
async function unreadInTopic(channel: string, topic: string): Promise<number[]> {
  const answer = await api(page, OLIVIA, 'GET', '/messages', {
    anchor: 'newest',
    num_before: 1000,
    num_after: 0,
    narrow: [
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: topic },
      { operator: 'is', operand: 'unread' },
    ],
  });
  return (answer.messages as { id: number }[]).map((message) => message.id);
}

async function marcusSends(channel: string, topic: string, content: string): Promise<number> {
  const answer = await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: channel, topic, content });
  expect(answer.result).toBe('success');
  return answer.id as number;
}

const inboxGroup = (name: string) => page.getByRole('region', { name, exact: true });
const inboxRow = (group: string, conversation: string) => inboxGroup(group).getByRole('listitem').filter({ hasText: conversation });

describe('the Inbox (#inbox)', () => {
  test('opened by its URL, it lists each unread topic under its channel with the server’s unread count', async () => {
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Inbox');
    const unread = await unreadInTopic('engineering', 'Release 2.4');
    expect(unread.length).toBeGreaterThan(0);
    await expect(inboxRow('#engineering', 'Release 2.4').getByLabel(`${unread.length} unread`).textContent()).resolves.toBe(String(unread.length));
    await expect(page.getByRole('link', { name: 'Inbox' }).getAttribute('aria-current')).resolves.toBe('page');
    await expect(page.getByRole('link', { name: /^Combined feed/ }).getAttribute('aria-current')).resolves.toBeNull();
  });

  test('the page title gives the unread count, the view and the realm, and follows the count', async () => {
    const feedCount = async () => Number(await page.getByRole('link', { name: /^Combined feed/ }).locator('.count').textContent());
    await expect.poll(() => page.title()).toBe(`(${await feedCount()}) Inbox - Lakeside Labs - Offline Realm`);
    const before = await feedCount();
    await marcusSends('random', 'Title check', 'one more unread');
    await expect.poll(() => page.title()).toBe(`(${before + 1}) Inbox - Lakeside Labs - Offline Realm`);
    await page.getByRole('button', { name: 'Mark #random › Title check as read' }).click();
    await expect.poll(() => page.title()).toBe(`(${before}) Inbox - Lakeside Labs - Offline Realm`);
  });

  test('a message arriving in a new topic adds its row at once; its Mark as read button reads it on the server and the row goes', async () => {
    const id = await marcusSends('engineering', 'Inbox live check', 'is this in the inbox?');
    const row = inboxRow('#engineering', 'Inbox live check');
    await row.getByLabel('1 unread').waitFor();

    await page.getByRole('button', { name: 'Mark #engineering › Inbox live check as read' }).click();

    await row.waitFor({ state: 'detached' });
    await expect.poll(() => unreadInTopic('engineering', 'Inbox live check'), { timeout: WAIT_MS }).toEqual([]);
    const message = await api(page, OLIVIA, 'GET', `/messages/${id}`);
    expect(message.message.flags).toContain('read');
    // Nothing else was marked read with it.
    expect((await unreadInTopic('engineering', 'Release 2.4')).length).toBeGreaterThan(0);
  });

  test('the filter keeps only the conversations whose channel, topic or people match', async () => {
    const filter = page.getByRole('searchbox', { name: 'Filter conversations' });
    await filter.fill('snacks');
    await expect.poll(() => page.locator('.inbox-row').allTextContents()).toEqual([expect.stringContaining('Launch day snacks')]);
    await filter.fill('no conversation is called this');
    await page.getByText('No unread conversation matches “no conversation is called this”.').waitFor();
    await filter.fill('');
    await inboxRow('#engineering', 'Release 2.4').waitFor();
  });

  test('collapsing a channel hides its topics and keeps its count', async () => {
    await page.getByRole('button', { name: 'Collapse #engineering' }).click();
    await inboxRow('#engineering', 'Release 2.4').waitFor({ state: 'detached' });
    await expect(page.getByRole('button', { name: 'Expand #engineering' }).getAttribute('aria-expanded')).resolves.toBe('false');
    await page.getByRole('button', { name: 'Expand #engineering' }).click();
    await inboxRow('#engineering', 'Release 2.4').waitFor();
  });

  test('a row opens its conversation', async () => {
    await inboxRow('#random', 'Launch day snacks').getByRole('link').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('#random › Launch day snacks');
    expect(await page.evaluate(() => location.hash)).toMatch(/^#narrow\/channel\/\d+-random\/topic\/Launch.20day.20snacks$/);
  });
});

describe('Recent conversations (#recent)', () => {
  const rows = () => page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');

  test('Shift+I opens the Inbox and t opens Recent conversations, newest conversation first', async () => {
    await page.locator('body').press('Shift+I');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Inbox');
    await page.locator('body').press('t');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Recent conversations');
    expect(await page.evaluate(() => location.hash)).toBe('#recent');
    await expect.poll(() => rows().count()).toBeGreaterThan(3);
  });

  test('a new message moves its conversation to the top at once, naming its sender', async () => {
    await marcusSends('design', 'Launch graphics', 'one more banner size');
    await expect.poll(async () => (await rows().first().textContent()) ?? '', { timeout: WAIT_MS }).toContain('Launch graphics');
    await expect(rows().first().textContent()).resolves.toContain('Marcus Reed');
    await expect(rows().first().getByLabel('1 unread').count()).resolves.toBe(1);
  });

  test('the Unread filter keeps only conversations with unread messages; Participated, those Olivia wrote in', async () => {
    const all = await rows().count();
    await page.getByRole('button', { name: 'Unread', exact: true }).click();
    await expect.poll(async () => {
      const texts = await rows().allTextContents();
      return texts.length > 0 && texts.length < all && (await rows().filter({ has: page.locator('.count') }).count()) === texts.length;
    }).toBe(true);
    await page.getByRole('button', { name: 'Unread', exact: true }).click();
    await page.getByRole('button', { name: 'Participated' }).click();
    await expect.poll(() => rows().count()).toBeLessThan(all);
    // Every sender is in the title; the row itself names the first three.
    for (const senders of await rows().locator('.recent-senders').evaluateAll((elements) => elements.map((element) => element.getAttribute('title')))) {
      expect(senders).toContain('Olivia Park');
    }
    await page.getByRole('button', { name: 'Participated' }).click();
    await expect.poll(() => rows().count()).toBe(all);
  });

  test('a topic moved elsewhere shows under its new name', async () => {
    const id = await marcusSends('design', 'Banner sizes', 'which sizes?');
    await rows().filter({ hasText: 'Banner sizes' }).waitFor();
    const moved = await api(page, OLIVIA, 'PATCH', `/messages/${id}`, { topic: 'Banner dimensions', propagate_mode: 'change_all' });
    expect(moved.result).toBe('success');
    await rows().filter({ hasText: 'Banner dimensions' }).waitFor();
    await rows().filter({ hasText: 'Banner sizes' }).waitFor({ state: 'detached' });
  });

  test('reloading #recent opens it again, ready', async () => {
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.app === 'ready', undefined, { timeout: WAIT_MS });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Recent conversations');
    await rows().filter({ hasText: 'Banner dimensions' }).waitFor();
  });
});

describe('leaving a conversation view', () => {
  test('the combined feed link shows messages again', async () => {
    await goTo(page, '');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Combined feed');
    await expect.poll(() => page.locator('[data-message-id]').count()).toBeGreaterThan(0);
  });
});

describe('the keyboard: the next unread conversation, a new DM, and the list of keys', () => {
  /** The Inbox's rows' links, in its order: the DMs', or the channels' topics'. */
  const inboxLinks = (dms: boolean) =>
    page.locator('.inbox-row a').evaluateAll((links, inDms) => links.filter((link) => inDms === !!link.closest('[aria-label="Direct messages"]')).map((link) => link.getAttribute('href')), dms);
  const hash = () => page.evaluate(() => location.hash);

  test('n goes to each unread topic in the Inbox’s order, and p to the newest unread DM', async () => {
    await marcusSends('random', 'Keys one', 'first of the keyboard topics');
    await marcusSends('support', 'Keys two', 'second of the keyboard topics');
    const olivia = (await api(page, OLIVIA, 'GET', '/users/me')).user_id as number;
    expect((await api(page, MARCUS, 'POST', '/messages', { type: 'direct', to: [olivia], content: 'a word for p' })).result).toBe('success');
    await goTo(page, '#inbox');
    await inboxRow('#support', 'Keys two').waitFor();
    await inboxRow('Direct messages', 'Marcus Reed').first().waitFor();
    const topics = await inboxLinks(false);
    const dms = await inboxLinks(true);
    expect(topics.length).toBeGreaterThanOrEqual(2);

    const heading = () => page.getByRole('heading', { level: 1 }).textContent();
    /** A key, then the address it should lead to, and the view following it (its heading changed) before the next key. */
    const pressAndGo = async (key: string, to: string | null | undefined) => {
      const before = await heading();
      await page.locator('body').press(key);
      await expect.poll(hash).toBe(to);
      await expect.poll(heading).not.toBe(before);
    };
    await pressAndGo('n', topics[0]);
    await pressAndGo('n', topics[1]);
    await page.locator('body').press('p');
    await expect.poll(hash).toBe(dms[0]);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('You and Marcus Reed');
  });

  test('x in a DM’s view starts a direct message to its people, the message box focused', async () => {
    await page.locator('body').press('x');
    await expect(page.getByRole('radio', { name: 'Direct message' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('list', { name: 'Recipients' }).textContent()).resolves.toContain('Marcus Reed');
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await expect.poll(() => box.evaluate((field) => field === document.activeElement)).toBe(true);
    await box.press('Escape');
    await expect.poll(() => box.evaluate((field) => field === document.activeElement)).toBe(false);
  });

  test('? lists the keys, n and p among them; Esc closes the list', async () => {
    await page.locator('body').press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    await expect(dialog.getByRole('row', { name: 'n Next unread topic' }).count()).resolves.toBe(1);
    await expect(dialog.getByRole('row', { name: 'p Next unread direct message' }).count()).resolves.toBe(1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});

describe('the sidebar’s Filter channels box', () => {
  const sidebar = () => page.getByRole('navigation', { name: 'Channels and conversations', exact: true });
  const filter = () => sidebar().getByRole('searchbox', { name: 'Filter channels', exact: true });
  /** The channel links' names (not their topics'), in the sidebar's order. */
  const channelNames = () => sidebar().locator('.channel-item > a .label').allTextContents();

  test('typing keeps the channels whose name holds it, and only their folders', async () => {
    await filter().fill('eng');
    await expect.poll(channelNames).toEqual(['engineering']);
    await expect(sidebar().getByRole('heading', { name: 'Product', exact: true }).count()).resolves.toBe(1);
    await expect(sidebar().getByRole('heading', { name: 'Company', exact: true }).count()).resolves.toBe(0);
    await expect(sidebar().getByRole('heading', { name: 'Customers', exact: true }).count()).resolves.toBe(0);
  });

  test('Enter opens the first match and clears the box', async () => {
    await filter().press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#narrow/channel/5-engineering');
    await expect(filter().inputValue()).resolves.toBe('');
    await expect.poll(async () => (await channelNames()).length).toBeGreaterThan(1);
  });

  test('Escape clears the box and leaves it', async () => {
    const all = await channelNames();
    await filter().fill('design');
    await expect.poll(channelNames).toEqual(['design']);
    await filter().press('Escape');
    await expect(filter().inputValue()).resolves.toBe('');
    await expect(filter().evaluate((box) => box === document.activeElement)).resolves.toBe(false);
    await expect.poll(channelNames).toEqual(all);
  });

  test('a filter matching no channel says so', async () => {
    await filter().fill('no such channel');
    await sidebar().getByText('No channels match “no such channel”.', { exact: true }).waitFor();
    await expect(channelNames()).resolves.toEqual([]);
    await filter().press('Escape');
    await expect.poll(async () => (await channelNames()).length).toBeGreaterThan(1);
  });
});

describe('the sidebar’s channel and topic menus', () => {
  const sidebar = () => page.getByRole('navigation', { name: 'Channels and conversations', exact: true });
  const pinnedOnServer = async (name: string) =>
    ((await api(page, OLIVIA, 'GET', '/users/me/subscriptions')).subscriptions as { name: string; pin_to_top: boolean }[]).find((sub) => sub.name === name)?.pin_to_top;

  test('a channel’s “⋮” pins it to the top of the sidebar on the server, and unpins it', async () => {
    await sidebar().getByRole('button', { name: 'Channel options for #design', exact: true }).click();
    await page.getByRole('menu', { name: 'Channel options for #design' }).getByRole('menuitem', { name: 'Pin channel to top' }).click();
    await sidebar().getByRole('region', { name: 'Pinned', exact: true }).getByRole('link', { name: 'design' }).waitFor();
    await expect.poll(() => pinnedOnServer('design')).toBe(true);

    await sidebar().getByRole('button', { name: 'Channel options for #design', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Unpin channel from top' }).click();
    await sidebar().getByRole('region', { name: 'Pinned', exact: true }).waitFor({ state: 'detached' });
    await expect.poll(() => pinnedOnServer('design')).toBe(false);
  });

  test('a topic’s “⋮”, opened from the keyboard, marks it read and mutes it on the server; Esc closes it', async () => {
    // Another topic of the channel open (its topics listed), so this one's message stays unread.
    await marcusSends('design', 'Sidebar menu elsewhere', 'the topic being read');
    await goTo(page, '#narrow/channel/6-design/topic/Sidebar.20menu.20elsewhere');
    await marcusSends('design', 'Sidebar menu check', 'a topic for its sidebar menu');
    const button = sidebar().getByRole('button', { name: 'Topic options for Sidebar menu check', exact: true });
    const menu = page.getByRole('menu', { name: 'Topic options for Sidebar menu check' });
    const row = sidebar().locator('.topic-item', { hasText: 'Sidebar menu check' });
    await row.getByLabel('1 unread').waitFor();

    await button.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => menu.getByRole('menuitemradio', { name: 'Mute' }).evaluate((item) => item === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(() => button.evaluate((element) => element === document.activeElement)).toBe(true);

    await page.keyboard.press('Enter');
    await menu.getByRole('menuitem', { name: 'Mark all messages as read' }).click();
    await expect.poll(() => unreadInTopic('design', 'Sidebar menu check'), { timeout: WAIT_MS }).toEqual([]);
    await row.getByLabel('1 unread').waitFor({ state: 'detached' });

    const policy = async () =>
      ((await api(page, OLIVIA, 'POST', '/register', { fetch_event_types: ['user_topic'] })).user_topics as { topic_name: string; visibility_policy: number }[]).find(
        (topic) => topic.topic_name === 'Sidebar menu check',
      )?.visibility_policy;
    await button.click();
    await menu.getByRole('menuitemradio', { name: 'Mute' }).click();
    await expect.poll(policy).toBe(1);
    await expect.poll(() => row.getAttribute('class')).toContain('muted');
  });
});
