import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  api,
  goTo,
  HANNAH,
  launchBrowser,
  logInAs,
  logOut,
  MARCUS,
  messageAction,
  messageElement,
  messageWithText,
  newestInTopic,
  newProfile,
  OLIVIA,
  openChat,
  send,
  shownMessageIds,
  storedDrafts,
  WAIT_MS,
} from './chat-browser.ts';

/** #general, a fresh topic per run of this file: only this file's messages are in it. */
const TOPIC_HASH = '#narrow/channel/2-general/topic/app.20test';

let browser: Browser;
let profile: BrowserContext;
/** Olivia's tab and Marcus's tab, in one browser: two people side by side. */
let olivia: Page;
let marcus: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  profile = await newProfile(browser);
  olivia = await openChat(profile);
  await logInAs(olivia, 'Olivia Park');
  marcus = await openChat(profile);
  await logOut(marcus);
  await logInAs(marcus, 'Marcus Reed');
  await goTo(olivia, TOPIC_HASH);
  await goTo(marcus, TOPIC_HASH);
});
afterAll(async () => {
  await browser.close();
});

/** The id of the newest message whose text is `text`, as the server has it. */
async function idOf(text: string): Promise<number> {
  const answer = await api(olivia, OLIVIA, 'GET', '/messages', {
    anchor: 'newest',
    num_before: 20,
    num_after: 0,
    narrow: [{ operator: 'search', operand: text }],
    apply_markdown: false,
  });
  const found = (answer.messages as { id: number; content: string }[]).filter((m) => m.content === text);
  expect(found).toHaveLength(1);
  return found[0].id;
}

describe('chatting between two people in two tabs', () => {
  test('a message sent in a topic narrow goes to that topic and appears live in the other tab', async () => {
    // The compose box follows the narrow the tab was sent to (a moment after the hash changed).
    await expect.poll(() => olivia.getByLabel('Channel', { exact: true }).inputValue(), { timeout: WAIT_MS }).toBe('2');
    await expect.poll(() => olivia.getByRole('textbox', { name: 'Topic' }).inputValue(), { timeout: WAIT_MS }).toBe('app test');

    await send(olivia, 'hello from the compose box');

    await messageWithText(marcus, 'hello from the compose box').waitFor();
    const id = await idOf('hello from the compose box');
    await expect(messageElement(marcus, id).textContent()).resolves.toContain('Olivia Park');
    const stored = await api(olivia, OLIVIA, 'GET', `/messages/${id}`, { apply_markdown: false });
    expect(stored.message).toMatchObject({ display_recipient: 'general', subject: 'app test', content: 'hello from the compose box' });
    // The app names itself (upstream's `client`), so the server treats its sender as a person: their own message is read.
    expect(stored.message.client).toBe('OfflineRealm');
  });

  test('a reaction added in one tab shows in the other, naming who reacted', async () => {
    const id = await idOf('hello from the compose box');
    await messageAction(marcus, id, 'Add reaction');
    await marcus.getByRole('dialog', { name: 'Add reaction' }).getByRole('button', { name: 'tada' }).click();

    const reaction = messageElement(olivia, id).getByRole('button', { name: 'tada: Marcus Reed' });
    await reaction.waitFor();
    await expect(reaction.getAttribute('aria-pressed')).resolves.toBe('false');
    await expect(messageElement(marcus, id).getByRole('button', { name: 'tada: You' }).getAttribute('aria-pressed')).resolves.toBe('true');
  });

  test('the emoji picker searches every emoji the server accepts, beyond the popular ones', async () => {
    const id = await idOf('hello from the compose box');
    await messageAction(marcus, id, 'Add reaction');
    const picker = marcus.getByRole('dialog', { name: 'Add reaction' });
    await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('cano');
    await picker.getByRole('button', { name: 'canoe' }).click();

    await messageElement(olivia, id).getByRole('button', { name: 'canoe: Marcus Reed' }).waitFor();
    const stored = await api(olivia, OLIVIA, 'GET', `/messages/${id}`);
    expect(stored.message.reactions).toContainEqual(expect.objectContaining({ emoji_name: 'canoe', emoji_code: '1f6f6', reaction_type: 'unicode_emoji', user_id: 9 }));
  });

  test('the emoji picker lists upstream’s categories in order; a category’s button, pressed from the keyboard, jumps to its emoji', async () => {
    const id = await idOf('hello from the compose box');
    await messageAction(marcus, id, 'Add reaction');
    const picker = marcus.getByRole('dialog', { name: 'Add reaction' });
    const symbols = picker.getByRole('group', { name: 'Emoji categories' }).getByRole('button', { name: 'Symbols', exact: true });
    // Once the server's categories are here.
    await symbols.waitFor();
    const headings = await picker.locator('.emoji-heading').allTextContents();
    expect(headings.slice(0, 10)).toEqual(['Popular', 'Smileys & Emotion', 'People & Body', 'Animals & Nature', 'Food & Drink', 'Activities', 'Travel & Places', 'Objects', 'Symbols', 'Flags']);

    await symbols.focus();
    await marcus.keyboard.press('Enter');
    // The focus is on the category's first emoji, in view, and its button shows as the current one.
    const focused = async () =>
      marcus.evaluate(() => {
        const active = document.activeElement as HTMLElement;
        const scroller = active.closest('.emoji-scroller')!.getBoundingClientRect();
        const box = active.getBoundingClientRect();
        return { section: active.closest<HTMLElement>('[data-section]')?.dataset.section, inView: box.top >= scroller.top && box.bottom <= scroller.bottom };
      });
    await expect.poll(focused, { timeout: WAIT_MS }).toEqual({ section: 'Symbols', inView: true });
    await expect.poll(() => symbols.getAttribute('aria-current'), { timeout: WAIT_MS }).toBe('true');
    const name = await marcus.evaluate(() => document.activeElement!.getAttribute('aria-label')!);
    await marcus.keyboard.press('Enter');
    await messageElement(olivia, id).getByRole('button', { name: `${name}: Marcus Reed` }).waitFor();
  });

  test('the emoji picker says when no emoji has the name typed, and Enter then sends nothing', async () => {
    const id = await idOf('hello from the compose box');
    await messageAction(marcus, id, 'Add reaction');
    const picker = marcus.getByRole('dialog', { name: 'Add reaction' });
    const search = picker.getByRole('searchbox', { name: 'Search emoji' });
    // Once the server's names are here (a name only it knows is offered).
    await search.fill('cano');
    await picker.getByRole('button', { name: 'canoe' }).waitFor();
    await search.fill('tacos');
    await picker.getByRole('status').filter({ hasText: 'No emoji is named “tacos”.' }).waitFor();
    await expect(picker.getByRole('button', { name: /^Use :/ }).count()).resolves.toBe(0);
    await search.press('Enter');
    // Still open, nothing sent.
    await expect(search.inputValue()).resolves.toBe('tacos');
    await picker.getByRole('button', { name: 'Close' }).click();
    await picker.waitFor({ state: 'detached' });
    const stored = await api(olivia, OLIVIA, 'GET', `/messages/${id}`);
    expect(stored.message.reactions.map((reaction: { emoji_name: string }) => reaction.emoji_name)).not.toContain('tacos');
  });

  test('an edit shows the new content in the other tab, marked edited, with its history; one past the length limit is not saved', async () => {
    const id = await idOf('hello from the compose box');
    await messageAction(olivia, id, 'Edit');
    const editor = olivia.getByRole('textbox', { name: 'Edit message' });
    await olivia.waitForFunction(() => (document.querySelector('textarea[aria-label="Edit message"]') as HTMLTextAreaElement)?.value === 'hello from the compose box');
    // Past the length limit the editor says so and does not save.
    await editor.fill('x'.repeat(10_001));
    const over = olivia.getByText('1 character over the limit of 10000', { exact: true });
    await over.waitFor();
    expect(await olivia.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await editor.fill('hello, edited');
    await over.waitFor({ state: 'detached' });
    // Ctrl+B works here as in the compose box, and again takes it off.
    await editor.evaluate((field: HTMLTextAreaElement) => field.setSelectionRange(0, 5));
    await editor.press('Control+b');
    await expect.poll(() => editor.inputValue()).toBe('**hello**, edited');
    await editor.press('Control+b');
    await expect.poll(() => editor.inputValue()).toBe('hello, edited');
    await olivia.getByRole('button', { name: 'Save' }).click();

    await messageElement(marcus, id).getByText('hello, edited').waitFor();
    await expect(messageElement(marcus, id).textContent()).resolves.toContain('(edited)');

    await messageAction(marcus, id, 'More actions');
    await marcus.getByRole('menuitem', { name: 'View edit history' }).click();
    const history = marcus.getByRole('dialog', { name: 'Message edit history' });
    await history.getByText('hello from the compose box').waitFor();
    await expect(history.textContent()).resolves.toContain('hello, edited');
    await history.getByRole('button', { name: 'Close' }).click();
  });

  test('starring puts the message in the starred view', async () => {
    const id = await idOf('hello, edited');
    await messageAction(marcus, id, 'Star');
    await messageElement(marcus, id).getByRole('button', { name: 'Unstar' }).waitFor();

    await goTo(marcus, '#narrow/is/starred');
    await messageElement(marcus, id).waitFor();
    await goTo(marcus, TOPIC_HASH);
    await messageElement(marcus, id).waitFor();
  });

  test('- collapses the selected message for its reader alone, kept by the server; More… expands it again', async () => {
    await send(olivia, 'a wall of text to fold away');
    const id = await idOf('a wall of text to fold away');
    const content = messageElement(olivia, id).locator('.message-content');
    // A click replies to it, as upstream's: Esc leaves the compose box for the keys.
    await messageElement(olivia, id).click({ position: { x: 4, y: 4 } });
    await olivia.keyboard.press('Escape');
    await olivia.keyboard.press('-');
    await content.waitFor({ state: 'hidden' });
    expect((await api(olivia, OLIVIA, 'GET', `/messages/${id}`)).message.flags).toContain('collapsed');
    // Marcus still reads it.
    await messageElement(marcus, id).locator('.message-content').getByText('a wall of text to fold away').waitFor();

    await messageElement(olivia, id).getByRole('button', { name: 'Expand collapsed message' }).click();
    await content.waitFor({ state: 'visible' });
    expect((await api(olivia, OLIVIA, 'GET', `/messages/${id}`)).message.flags).not.toContain('collapsed');
  });

  test('deleting removes the message from both tabs', async () => {
    await send(olivia, 'this one goes away');
    const id = await idOf('this one goes away');
    await messageElement(marcus, id).waitFor();

    await messageAction(olivia, id, 'More actions');
    await olivia.getByRole('menuitem', { name: 'Delete message' }).click();
    await olivia.getByRole('dialog', { name: 'Delete message?' }).getByRole('button', { name: 'Delete' }).click();

    await messageElement(marcus, id).waitFor({ state: 'detached' });
    await messageElement(olivia, id).waitFor({ state: 'detached' });
  });

  test('a direct message typed with To reaches the other person’s DM narrow', async () => {
    await goTo(marcus, '#narrow/dm/8-Olivia-Park');
    await olivia.bringToFront();
    await olivia.getByRole('radio', { name: 'Direct message' }).check();
    await olivia.getByRole('textbox', { name: 'To' }).fill('marcus@lakeside.test');
    await send(olivia, 'a private word');

    await messageWithText(marcus, 'a private word').waitFor();
    await expect(marcus.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('You and Olivia Park');
  });

  test('a refused send keeps the text in the composer and shows the server’s message', async () => {
    // The organization requires topics: a message with none is refused by the server.
    const hannah = await openChat(profile);
    await logOut(hannah);
    await logInAs(hannah, 'Hannah Kim');
    expect((await api(hannah, OLIVIA, 'PATCH', '/realm', { topics_policy: 'disable_empty_topic' })).result).toBe('success');
    try {
      await goTo(hannah, '#narrow/channel/2-general');
      await hannah.bringToFront();
      await hannah.getByRole('textbox', { name: 'Topic', exact: true }).fill('');
      const box = hannah.getByRole('textbox', { name: 'Message', exact: true });
      await box.fill('no topic given');
      await hannah.getByRole('button', { name: 'Send', exact: true }).click();

      await expect(hannah.getByRole('alert').textContent()).resolves.toMatch(/topic/i);
      await expect(box.inputValue()).resolves.toBe('no topic given');
      const answer = await api(hannah, HANNAH, 'GET', '/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: 'general' }], apply_markdown: false });
      expect((answer.messages as { content: string }[]).map((m) => m.content)).not.toContain('no topic given');
    } finally {
      await api(hannah, OLIVIA, 'PATCH', '/realm', { topics_policy: 'allow_empty_topic' });
      await hannah.close();
    }
  });

  test('the search box shows the messages that match upstream’s search syntax, the words searched for highlighted', async () => {
    await olivia.bringToFront();
    const search = olivia.getByRole('searchbox', { name: 'Search' });
    await search.fill('channel:general topic:"app test" edited');
    await search.press('Enter');

    await olivia.getByRole('heading', { name: 'Search: channel:general topic:"app test" edited' }).waitFor();
    const id = await idOf('hello, edited');
    await expect.poll(() => shownMessageIds(olivia), { timeout: 20_000 }).toEqual([id]);
    expect(await olivia.evaluate(() => location.hash)).toBe('#narrow/search/channel.3Ageneral.20topic.3A.22app.20test.22.20edited');
    // The word searched for is highlighted, as the server's match_content marks it.
    await expect(messageElement(olivia, id).locator('.message-content .highlight').allTextContents()).resolves.toEqual(['edited']);
  });

  test('the search box suggests the operand being typed: Enter takes the chosen one, Enter again searches', async () => {
    await olivia.bringToFront();
    const search = olivia.getByRole('searchbox', { name: 'Search' });
    await search.fill('');
    await search.pressSequentially('sender:marc');
    await olivia.getByRole('option', { name: /^Marcus Reed/, selected: true }).waitFor();
    await search.press('Enter');
    await expect.poll(() => search.inputValue()).toBe('sender:marcus@lakeside.test ');
    await expect(olivia.getByRole('listbox').count()).resolves.toBe(0);
    await search.press('Enter');
    await olivia.getByRole('heading', { name: 'Search: sender:marcus@lakeside.test' }).waitFor();
    await expect.poll(async () => new Set(await olivia.locator('[data-message-id] .sender-name').allTextContents()), { timeout: WAIT_MS }).toEqual(new Set(['Marcus Reed']));
  });

  test('the search box offers upstream’s filters when empty and the plain search first for a word; it follows the view', async () => {
    await olivia.bringToFront();
    await goTo(olivia, TOPIC_HASH);
    const search = olivia.getByRole('searchbox', { name: 'Search' });
    await expect.poll(() => search.inputValue(), { timeout: WAIT_MS }).toBe('');
    await search.focus();
    const options = olivia.getByRole('search').getByRole('option');
    await options.first().waitFor();
    await expect(options.allTextContents()).resolves.toEqual(
      expect.arrayContaining(['is:dmDirect messages', 'is:starredStarred messages', 'sender:olivia@lakeside.testSent by me', 'has:linkMessages with links']),
    );
    // Nothing is chosen yet: the list is a start, not an answer.
    await expect(search.getAttribute('aria-activedescendant')).resolves.toBeNull();

    await search.pressSequentially('edited');
    await olivia.getByRole('option', { name: /^edited\s*Search$/, selected: true }).waitFor();
    await search.press('Enter');
    await olivia.getByRole('heading', { name: 'Search: edited' }).waitFor();
    const id = await idOf('hello, edited');
    await expect.poll(() => shownMessageIds(olivia), { timeout: WAIT_MS }).toContain(id);

    // Esc drops what was typed since: the box shows the view's search again.
    await search.click();
    await search.pressSequentially(' sender:ma');
    await search.press('Escape');
    await expect.poll(() => search.inputValue()).toBe('edited');
    await expect(search.evaluate((element) => element === document.activeElement)).resolves.toBe(false);
    // Another view empties it, whatever was typed.
    await search.fill('sender:sa');
    await goTo(olivia, TOPIC_HASH);
    await expect.poll(() => search.inputValue(), { timeout: WAIT_MS }).toBe('');
  });

  test('the More actions menu of the newest message in a full list opens upward, every item in view', async () => {
    await goTo(olivia, '#narrow/channel/5-engineering/topic/Dark.20mode.20implementation');
    await expect.poll(async () => (await shownMessageIds(olivia)).length, { timeout: WAIT_MS }).toBeGreaterThan(5);
    const newest = (await shownMessageIds(olivia)).at(-1)!;
    await messageAction(olivia, newest, 'More actions');
    const list = (await olivia.locator('.message-scroller').boundingBox())!;
    const items = olivia.getByRole('menu').getByRole('menuitem');
    await expect(items.count()).resolves.toBe(9);
    for (const item of await items.all()) {
      const box = (await item.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(list.y);
      expect(box.y + box.height).toBeLessThanOrEqual(list.y + list.height);
    }
    await olivia.keyboard.press('Escape');
    await goTo(olivia, TOPIC_HASH);
  });

  test('an open menu closes on a press outside it and on Escape wherever the focus is, so two are never open', async () => {
    await send(olivia, 'one menu');
    await send(olivia, 'then another');
    const [first, second] = await Promise.all([idOf('one menu'), idOf('then another')]);
    await messageAction(olivia, first, 'More actions');
    await olivia.getByRole('menu').waitFor();
    await messageAction(olivia, second, 'More actions');
    await expect(olivia.getByRole('menu').count()).resolves.toBe(1);
    await olivia.getByRole('heading', { level: 1 }).click();
    await olivia.getByRole('menu').waitFor({ state: 'detached' });

    await olivia.getByRole('button', { name: 'Menu for Olivia Park' }).click();
    await olivia.getByRole('menu').waitFor();
    await olivia.locator('body').evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await olivia.keyboard.press('Escape');
    await olivia.getByRole('menu').waitFor({ state: 'detached' });
  });

  test('at phone widths the topic menu stays inside the window, wherever the header wrapped its button', async () => {
    await goTo(olivia, '#narrow/channel/3-random/topic/Launch.20day.20snacks');
    for (let width = 300; width <= 420; width += 15) {
      await olivia.setViewportSize({ width, height: 844 });
      await olivia.getByRole('button', { name: 'Topic actions' }).click();
      const box = (await olivia.getByRole('menu').boundingBox())!;
      expect([width, box.x >= 0 && box.x + box.width <= width]).toEqual([width, true]);
      await olivia.keyboard.press('Escape');
      await olivia.getByRole('menu').waitFor({ state: 'detached' });
    }
    await olivia.setViewportSize({ width: 1280, height: 800 });
    await goTo(olivia, TOPIC_HASH);
  });

  test('a topic is marked resolved from its header, the view and the compose box following it to its ✔ name; writing into it offers to unresolve it first', async () => {
    await goTo(olivia, '#narrow/channel/2-general/topic/resolve.20me');
    await send(olivia, 'is this fixed?');
    const box = olivia.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('half-written');
    await olivia.getByRole('button', { name: 'Mark as resolved' }).click();
    await olivia.getByRole('heading', { name: '#general › ✔ resolve me' }).waitFor();
    await messageWithText(olivia, 'is this fixed?').waitFor();
    // The unsent text went along, its draft too: none is left under the old name.
    await expect(olivia.getByRole('textbox', { name: 'Topic' }).inputValue()).resolves.toBe('✔ resolve me');
    await expect(box.inputValue()).resolves.toBe('half-written');
    const keysHolding = async (text: string) => Object.entries(await storedDrafts(olivia)).flatMap(([key, value]) => (value === text ? [key.replace(/^.*:topic:/, '')] : []));
    await expect.poll(() => keysHolding('half-written'), { timeout: WAIT_MS }).toEqual(['2:✔ resolve me']);

    // The notification bot says who resolved it, as upstream's does.
    await messageWithText(olivia, 'has marked this topic as resolved').waitFor();

    await olivia.getByRole('button', { name: 'Mark as unresolved' }).waitFor();

    // Writing into it warns, as upstream's compose box, and offers to unresolve it first.
    await box.fill('one more thing');
    const warning = olivia.getByRole('status').filter({ hasText: 'You are sending a message to a resolved topic.' });
    await warning.getByRole('button', { name: 'Unresolve topic' }).click();
    await olivia.getByRole('heading', { name: '#general › resolve me' }).waitFor();
    await expect(olivia.getByRole('textbox', { name: 'Topic' }).inputValue()).resolves.toBe('resolve me');
    await expect(box.inputValue()).resolves.toBe('one more thing');
    await warning.waitFor({ state: 'detached' });
    await box.fill('');
    await messageWithText(olivia, 'is this fixed?').waitFor();
    const messages = await newestInTopic(olivia, OLIVIA, 'general', 'resolve me', 5);
    expect(messages.every((message) => message.subject === 'resolve me')).toBe(true);
    await goTo(olivia, TOPIC_HASH);
  });

  test('the sidebar\'s topics follow a topic someone else renames quietly', async () => {
    await goTo(olivia, '#narrow/channel/2-general/topic/old.20name');
    await send(olivia, 'in the old name');
    const topics = olivia.getByRole('list', { name: 'Topics' });
    await topics.getByRole('link', { name: 'old name', exact: true }).waitFor();
    const id = await idOf('in the old name');
    const renamed = await api(marcus, MARCUS, 'PATCH', `/messages/${id}`, { topic: 'new name', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false });
    expect(renamed.result).toBe('success');
    await topics.getByRole('link', { name: 'new name', exact: true }).waitFor();
    await topics.getByRole('link', { name: 'old name', exact: true }).waitFor({ state: 'detached' });
    await goTo(olivia, TOPIC_HASH);
  });

  test('Rename topic from the topic menu (its keys as every menu’s) moves every message, the notice as chosen, and the view follows the topic', async () => {
    await goTo(olivia, '#narrow/channel/2-general/topic/draft.20name');
    await send(olivia, 'first under the draft name');
    await send(olivia, 'second under the draft name');
    await messageWithText(olivia, 'second under the draft name').waitFor();
    const dialog = olivia.getByRole('dialog', { name: 'Rename topic' });
    // Renamed to its own name, nothing is asked of the server: the dialog just closes.
    await olivia.getByRole('button', { name: 'Topic actions' }).click();
    await olivia.getByRole('menuitem', { name: 'Rename topic' }).click();
    await dialog.getByRole('button', { name: 'Rename', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect(olivia.getByRole('alert').count()).resolves.toBe(0);

    // Opened from the keyboard, the menu takes the focus on its first choice, and the arrow keys
    // move among its choices, as in every other menu.
    await olivia.getByRole('button', { name: 'Topic actions' }).focus();
    await olivia.keyboard.press('Enter');
    const focusedChoice = () => olivia.evaluate(() => document.activeElement?.textContent?.trim());
    const focusedName = () => olivia.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await expect.poll(focusedChoice, { timeout: WAIT_MS }).toBe('Copy link to topic');
    // A choice closes the menu with the focus back on its button.
    await olivia.keyboard.press('Enter');
    await expect.poll(focusedName, { timeout: WAIT_MS }).toBe('Topic actions');
    await expect(olivia.getByRole('menu').count()).resolves.toBe(0);
    await olivia.keyboard.press('Enter');
    await expect.poll(focusedChoice, { timeout: WAIT_MS }).toBe('Copy link to topic');
    // Escape closes it, the focus back on its button; so does tabbing out of it (past its button).
    await olivia.keyboard.press('Escape');
    await expect.poll(focusedName, { timeout: WAIT_MS }).toBe('Topic actions');
    await expect(olivia.getByRole('menu').count()).resolves.toBe(0);
    await olivia.keyboard.press('Enter');
    await expect.poll(focusedChoice, { timeout: WAIT_MS }).toBe('Copy link to topic');
    await olivia.keyboard.press('Shift+Tab');
    await olivia.keyboard.press('Shift+Tab');
    await olivia.getByRole('menu', { name: 'Topic actions' }).waitFor({ state: 'detached' });
    await olivia.getByRole('button', { name: 'Topic actions' }).focus();
    await olivia.keyboard.press('Enter');
    await expect.poll(focusedChoice, { timeout: WAIT_MS }).toBe('Copy link to topic');
    await olivia.keyboard.press('ArrowDown');
    await expect(focusedChoice()).resolves.toBe('Rename topic');
    await olivia.keyboard.press('Enter');
    // The channel stays: a rename offers no channel, and asks nothing about which messages.
    await expect(dialog.getByRole('combobox').count()).resolves.toBe(0);
    await dialog.getByRole('textbox', { name: 'New topic' }).fill('final name');
    await dialog.getByRole('checkbox', { name: 'Send automated notice to new topic' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'Send automated notice to old topic' }).check();
    await dialog.getByRole('button', { name: 'Rename', exact: true }).click();

    await olivia.getByRole('heading', { name: '#general › final name' }).waitFor();
    const moved = await newestInTopic(olivia, OLIVIA, 'general', 'final name', 5);
    expect(moved.map((message) => message.content)).toEqual(['<p>first under the draft name</p>', '<p>second under the draft name</p>']);
    const left = await newestInTopic(olivia, OLIVIA, 'general', 'draft name', 5);
    expect(left).toHaveLength(1);
    expect(left[0].content).toContain('This topic was moved to');
    await goTo(olivia, TOPIC_HASH);
  });

  test('a topic no one wrote in yet offers nothing to resolve', async () => {
    await goTo(olivia, '#narrow/channel/3-random/topic/nothing.20here.20yet');
    await olivia.getByRole('heading', { level: 1, name: '#random › nothing here yet' }).waitFor();
    await olivia.getByText('No messages here yet.').waitFor();
    await expect(olivia.getByRole('button', { name: 'Mark as resolved' }).count()).resolves.toBe(0);
    await goTo(olivia, TOPIC_HASH);
  });

  test('Delete topic, for an administrator, asks first, then every message of the topic is gone and the view goes to its channel', async () => {
    await goTo(olivia, '#narrow/channel/2-general/topic/doomed');
    await send(olivia, 'this topic will go');
    await messageWithText(olivia, 'this topic will go').waitFor();
    await olivia.getByRole('button', { name: 'Topic actions' }).click();
    await olivia.getByRole('menuitem', { name: 'Delete topic' }).click();
    const dialog = olivia.getByRole('dialog', { name: 'Delete topic “doomed”?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await newestInTopic(olivia, OLIVIA, 'general', 'doomed', 5)).toHaveLength(1);

    await olivia.getByRole('button', { name: 'Topic actions' }).click();
    await olivia.getByRole('menuitem', { name: 'Delete topic' }).click();
    await dialog.getByRole('button', { name: 'Delete topic' }).click();
    await olivia.getByRole('heading', { name: '#general', exact: true }).waitFor();
    expect(await newestInTopic(olivia, OLIVIA, 'general', 'doomed', 5)).toEqual([]);
    await goTo(olivia, TOPIC_HASH);
  });

  test('a sender\'s name opens their card, with a way to message them and to see what they sent', async () => {
    await goTo(olivia, '#narrow/channel/5-engineering/topic/Dark.20mode.20implementation');
    await olivia.getByRole('button', { name: 'Marcus Reed', exact: true }).last().click();
    const card = olivia.getByRole('dialog', { name: 'Marcus Reed' });
    await card.waitFor();
    await expect(card.locator('dd').allTextContents()).resolves.toEqual(['Administrator', 'marcus@lakeside.test', 'Active', expect.stringMatching(/\d:\d\d/)]);

    await card.getByRole('button', { name: 'View messages sent' }).click();
    await olivia.getByRole('heading', { name: 'Messages sent by Marcus Reed' }).waitFor();
    await expect(olivia.evaluate(() => location.hash)).resolves.toBe('#narrow/sender/9-Marcus-Reed');
    // The box follows the view in an effect after it: waited for, not read at once.
    await expect.poll(() => olivia.getByRole('searchbox', { name: 'Search' }).inputValue(), { timeout: WAIT_MS }).toBe('sender:marcus@lakeside.test');
    await expect.poll(async () => (await shownMessageIds(olivia)).length, { timeout: WAIT_MS }).toBeGreaterThan(0);
    const senders = await olivia.locator('[data-message-id] .sender-name').allTextContents();
    expect(new Set(senders)).toEqual(new Set(['Marcus Reed']));

    await olivia.getByRole('button', { name: 'Marcus Reed', exact: true }).first().click();
    await olivia.getByRole('dialog', { name: 'Marcus Reed' }).getByRole('button', { name: 'Send direct message' }).click();
    await olivia.getByRole('heading', { name: 'You and Marcus Reed' }).waitFor();
    await expect.poll(() => olivia.evaluate(() => document.activeElement?.getAttribute('aria-label')), { timeout: WAIT_MS }).toBe('Message');
    await goTo(olivia, TOPIC_HASH);
  });
});
