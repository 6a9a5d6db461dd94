import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, goTo, launchBrowser, logInAs, MARCUS, messageElement, newProfile, OLIVIA, openChat, WAIT_MS } from './chat-browser.ts';

let browser: Browser;
let page: Page;
let olivia: number;
let marcus: number;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await openChat(await newProfile(browser), '/#inbox');
  await logInAs(page, 'Olivia Park');
  olivia = (await api(page, OLIVIA, 'GET', '/users/me')).user_id as number;
  marcus = (await api(page, MARCUS, 'GET', '/users/me')).user_id as number;
});
afterAll(async () => {
  await browser.close();
});

const hash = () => page.evaluate(() => location.hash);
const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim());
const heading = () => page.getByRole('heading', { level: 1 }).textContent();
const selectedId = async () => Number(await page.locator('.message.selected').getAttribute('data-message-id'));
const messageBox = () => page.getByRole('form', { name: 'Compose' }).getByRole('textbox', { name: 'Message', exact: true });

/** Goes to the view and waits until the app shows it (its heading), so a key pressed next acts there. */
async function goToView(target: string, title: string): Promise<void> {
  await goTo(page, target);
  await expect.poll(heading, { timeout: WAIT_MS }).toBe(title);
}

/** A key pressed where no field has the focus, as a reader presses it. */
async function press(key: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press(key);
}

async function marcusSends(topic: string, content: string, channel = 'engineering'): Promise<number> {
  const answer = await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: channel, topic, content });
  expect(answer.result).toBe('success');
  return answer.id as number;
}

/** Opens the message in its topic, selected (a link near a message selects it). */
async function openSelected(topic: string, id: number, channel = '5-engineering'): Promise<void> {
  await goTo(page, `#narrow/channel/${channel}/topic/${encodeURIComponent(topic).replace(/%/g, '.')}/near/${id}`);
  await messageElement(page, id).waitFor();
  await expect.poll(selectedId, { timeout: WAIT_MS }).toBe(id);
}

async function serverMessage(id: number): Promise<{ flags: string[]; reactions: { emoji_name: string; emoji_code: string; user_id: number }[] }> {
  return (await api(page, OLIVIA, 'GET', `/messages/${id}`)).message;
}

describe('keys that go somewhere', () => {
  test('a opens the combined feed, * Starred messages and Shift+P the direct message feed', async () => {
    await goTo(page, '#inbox');
    await press('*');
    await expect.poll(hash).toBe('#narrow/is/starred');
    await press('Shift+P');
    await expect.poll(hash).toBe('#narrow/is/dm');
    await press('a');
    await expect.poll(hash).toBe('');
    await page.getByRole('heading', { level: 1, name: 'Combined feed' }).waitFor();
  });

  test('Shift+D and Shift+A go to the next and the previous channel in the sidebar’s order, from a topic too', async () => {
    await goToView('#narrow/channel/5-engineering/topic/CI', '#engineering › CI');
    const order = await page.getByRole('navigation', { name: 'Channels and conversations', exact: true }).locator('.channel-item > a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    const at = order.indexOf('#narrow/channel/5-engineering');
    expect(at).toBeGreaterThanOrEqual(0);
    await press('Shift+D');
    const next = order[(at + 1) % order.length];
    await expect.poll(hash).toBe(next);
    // The view has followed the address (its link in the sidebar is the current page).
    await page.locator(`.channel-item > a[href="${next}"][aria-current="page"]`).waitFor();
    await press('Shift+A');
    await expect.poll(hash).toBe('#narrow/channel/5-engineering');
  });

  test('Shift+N goes to the next unread topic I follow, passing unread topics I do not follow', async () => {
    await marcusSends('Not followed', 'unread, not followed');
    await marcusSends('Followed one', 'unread and followed', 'design');
    expect((await api(page, OLIVIA, 'POST', '/user_topics', { stream_id: 6, topic: 'Followed one', visibility_policy: 3 })).result).toBe('success');
    await goTo(page, '#inbox');
    await page.getByRole('region', { name: '#design', exact: true }).waitFor();
    await press('Shift+N');
    await expect.poll(hash).toBe('#narrow/channel/6-design/topic/Followed.20one');
  });

  test('s goes from a message in the feed to its topic, from the topic to its channel; z to the message in its topic', async () => {
    const id = await marcusSends('Keys s and z', 'where am I');
    await goTo(page, `#narrow/is/starred`);
    await goTo(page, `#narrow/sender/${marcus}-Marcus-Reed/near/${id}`);
    await expect.poll(selectedId, { timeout: WAIT_MS }).toBe(id);
    await press('z');
    await expect.poll(hash).toBe(`#narrow/channel/5-engineering/topic/Keys.20s.20and.20z/near/${id}`);
    await expect.poll(heading, { timeout: WAIT_MS }).toContain('Keys s and z');
    await expect.poll(selectedId, { timeout: WAIT_MS }).toBe(id);
    await press('s');
    await expect.poll(hash).toBe(`#narrow/channel/5-engineering/near/${id}`);
    await expect.poll(heading, { timeout: WAIT_MS }).toBe('#engineering');
    await expect.poll(selectedId, { timeout: WAIT_MS }).toBe(id);
    await press('s');
    await expect.poll(hash).toBe(`#narrow/channel/5-engineering/topic/Keys.20s.20and.20z/near/${id}`);
  });

  test('End selects the newest message, PgUp and Space scroll a screenful, Home selects the first one shown', async () => {
    const newest = await marcusSends('Home and End', 'the newest');
    await goToView('#narrow/channel/5-engineering', '#engineering');
    await messageElement(page, newest).waitFor();
    await press('End');
    await expect.poll(selectedId, { timeout: WAIT_MS }).toBe(newest);
    const scrolled = () => page.locator('.message-scroller').evaluate((element) => element.scrollTop);
    const atEnd = await scrolled();
    await press('PageUp');
    await expect.poll(scrolled, { timeout: WAIT_MS }).toBeLessThan(atEnd);
    const afterPageUp = await scrolled();
    await press('Space');
    await expect.poll(scrolled, { timeout: WAIT_MS }).toBeGreaterThan(afterPageUp);
    await press('Home');
    const first = async () => Number(await page.locator('.message-rows [data-message-id]').first().getAttribute('data-message-id'));
    await expect.poll(async () => (await selectedId()) === (await first()), { timeout: WAIT_MS }).toBe(true);
    expect(await selectedId()).toBeLessThan(newest);
  });

  test('Esc with nothing open goes to the home view: the Inbox, or the one chosen in Settings; switched off there, it stays', async () => {
    await goToView('#narrow/channel/2-general', '#general');
    await press('Escape');
    await expect.poll(hash, { timeout: WAIT_MS }).toBe('#inbox');

    await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    const settings = page.getByRole('complementary', { name: 'Settings' });
    await settings.getByRole('combobox', { name: 'Home view' }).selectOption({ label: 'Recent conversations' });
    await expect.poll(async () => (await api(page, OLIVIA, 'POST', '/register', { fetch_event_types: ['user_settings'] })).user_settings.web_home_view, { timeout: WAIT_MS }).toBe(
      'recent_topics',
    );
    // The first Esc closes the panel, the next goes home.
    await press('Escape');
    await settings.waitFor({ state: 'detached' });
    await goToView('#narrow/channel/2-general', '#general');
    await press('Escape');
    await expect.poll(hash, { timeout: WAIT_MS }).toBe('#recent');

    await api(page, OLIVIA, 'PATCH', '/settings', { web_escape_navigates_to_home_view: false, web_home_view: 'inbox' });
    await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expect.poll(() => settings.getByRole('checkbox', { name: 'Escape key navigates to home view' }).isChecked(), { timeout: WAIT_MS }).toBe(false);
    await press('Escape');
    await goToView('#narrow/channel/2-general', '#general');
    await press('Escape');
    await press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    expect(await hash()).toBe('#narrow/channel/2-general');
    await press('Escape');
    await api(page, OLIVIA, 'PATCH', '/settings', { web_escape_navigates_to_home_view: true });
  });
});

describe('keys on the selected message', () => {
  test('+ reacts with 👍 and takes it back; = adds my vote to the first reaction and takes it back', async () => {
    const id = await marcusSends('Reaction keys', 'react to me');
    expect((await api(page, MARCUS, 'POST', `/messages/${id}/reactions`, { emoji_name: 'tada' })).result).toBe('success');
    await openSelected('Reaction keys', id);
    const mine = async () => (await serverMessage(id)).reactions.filter((reaction) => reaction.user_id === olivia).map((reaction) => reaction.emoji_code);

    await press('+');
    await expect.poll(mine, { timeout: WAIT_MS }).toEqual(['1f44d']);
    await press('+');
    await expect.poll(mine, { timeout: WAIT_MS }).toEqual([]);
    await press('=');
    await expect.poll(mine, { timeout: WAIT_MS }).toEqual(['1f389']);
    await press('=');
    await expect.poll(mine, { timeout: WAIT_MS }).toEqual([]);
  });

  test('Ctrl+S stars and unstars it, also while writing in the compose box', async () => {
    const id = await marcusSends('Star key', 'star me');
    await openSelected('Star key', id);
    const starred = async () => (await serverMessage(id)).flags.includes('starred');
    await press('Control+s');
    await expect.poll(starred, { timeout: WAIT_MS }).toBe(true);
    await messageBox().click();
    await page.keyboard.press('Control+s');
    await expect.poll(starred, { timeout: WAIT_MS }).toBe(false);
  });

  test('Shift+U marks it and what follows unread; Shift+M mutes its topic, and again unmutes it', async () => {
    const first = await marcusSends('Unread keys', 'one');
    const second = await marcusSends('Unread keys', 'two');
    await openSelected('Unread keys', first);
    const unread = async () => (await Promise.all([first, second].map(serverMessage))).map((message) => !message.flags.includes('read'));
    await expect.poll(unread, { timeout: WAIT_MS }).toEqual([false, false]);
    await press('Shift+U');
    await expect.poll(unread, { timeout: WAIT_MS }).toEqual([true, true]);

    const muteButton = page.getByRole('button', { name: /^(Mute|Unmute) topic$/ });
    await expect(muteButton.getAttribute('aria-pressed')).resolves.toBe('false');
    await press('Shift+M');
    await expect.poll(() => muteButton.getAttribute('aria-pressed'), { timeout: WAIT_MS }).toBe('true');
    await page.getByText('You muted the topic “Unread keys”.').waitFor();
    await press('Shift+M');
    await expect.poll(() => muteButton.getAttribute('aria-pressed'), { timeout: WAIT_MS }).toBe('false');
  });

  test('u opens the sender’s card; i its menu, the arrows moving among the choices and Esc closing it; : the emoji picker; m the move dialog; Shift+H the edit history', async () => {
    const id = await marcusSends('Dialog keys', 'open things');
    await openSelected('Dialog keys', id);

    await press('u');
    const card = page.getByRole('dialog', { name: 'Marcus Reed' });
    await card.waitFor();
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });

    await press('i');
    const menu = messageElement(page, id).getByRole('menu');
    await menu.waitFor();
    await expect.poll(focusedLabel).toBe('Copy link to message');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedLabel).toBe('Forward message');
    await expect(selectedId()).resolves.toBe(id);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    // i again closes what i opened.
    await press('i');
    await menu.waitFor();
    await page.keyboard.press('i');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(focusedLabel).toBe('More actions');

    await press(':');
    const picker = page.getByRole('dialog', { name: /reaction/i });
    await picker.waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });

    await press('m');
    const move = page.getByRole('dialog', { name: /^Move/ });
    await move.waitFor();
    await page.keyboard.press('Escape');
    await move.waitFor({ state: 'detached' });

    await press('Shift+H');
    const history = page.getByRole('dialog', { name: /history/i });
    await history.waitFor();
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'detached' });
  });

  test('a key pressed right after the browser closed a dialog opens the next one, which stays open', async () => {
    const id = await marcusSends('Quick keys', 'one dialog after another');
    await openSelected('Quick keys', id);
    await press(':');
    await page.getByRole('dialog', { name: 'Add reaction' }).waitFor();
    // As the browser closes a dialog (its close event a task later), and m pressed in between.
    await page.evaluate(() => {
      const picker = document.querySelector('dialog');
      // Heard after the app's own listener: once this is set, the app has had the event.
      picker?.addEventListener('close', () => (document.documentElement.dataset.pickerClosed = 'yes'));
      picker?.close();
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'm', code: 'KeyM', bubbles: true }));
    });
    const move = page.getByRole('dialog', { name: /^Move/ });
    await move.waitFor();
    await page.waitForFunction(() => document.documentElement.dataset.pickerClosed === 'yes');
    await expect(move.isVisible()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await move.waitFor({ state: 'detached' });
  });

  test('Shift+V shows who read it once the organization turns read receipts on, and nothing before', async () => {
    const id = await marcusSends('Receipts key', 'who read this');
    await openSelected('Receipts key', id);
    const receipts = page.getByRole('dialog', { name: 'Read receipts' });
    await press('Shift+V');
    await press('Shift+Y');
    // The status dialog opened by the key after it: Shift+V had done nothing.
    const status = page.getByRole('dialog', { name: 'Set status' });
    await status.waitFor();
    await expect(receipts.count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
    await status.waitFor({ state: 'detached' });

    expect((await api(page, OLIVIA, 'PATCH', '/realm', { enable_read_receipts: true })).result).toBe('success');
    try {
      await expect.poll(async () => {
        await press('Shift+V');
        return receipts.count();
      }, { timeout: WAIT_MS }).toBe(1);
      await receipts.getByText(/^(This message has been read by|No one has read this message yet)/).waitFor();
      await page.keyboard.press('Escape');
      await receipts.waitFor({ state: 'detached' });
    } finally {
      await api(page, OLIVIA, 'PATCH', '/realm', { enable_read_receipts: false });
    }
  });

  test('v shows its image in the lightbox', async () => {
    const id = await marcusSends('Image key', 'the chart: [chart.png](/user_uploads/1/ab/AbCdEfGhIjKlMnOpQrStUvWx/chart.png)');
    await openSelected('Image key', id);
    await messageElement(page, id).locator('.message_inline_image a').waitFor();
    await press('v');
    const lightbox = page.getByRole('dialog', { name: 'chart.png' });
    await lightbox.waitFor();
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });
  });

  test('< forwards it: quoted in a new message with no channel chosen yet, the channel field focused', async () => {
    const id = await marcusSends('Forward key', 'pass this on');
    await openSelected('Forward key', id);
    await press('<');
    await expect.poll(() => messageBox().inputValue(), { timeout: WAIT_MS }).toMatch(new RegExp(`^@_\\*\\*Marcus Reed\\|${marcus}\\*\\* \\[said\\]\\(.*/near/${id}\\):\\n\`\`\`quote\\npass this on\\n\`\`\`\\n$`));
    const form = page.getByRole('form', { name: 'Compose' });
    await expect(form.getByRole('combobox', { name: 'Channel' }).inputValue()).resolves.toBe('');
    await expect(form.getByRole('textbox', { name: 'Topic', exact: true }).inputValue()).resolves.toBe('');
    await expect.poll(focusedLabel).toBe('Channel');
    await messageBox().fill('');
    await page.keyboard.press('Escape');
  });

  test('@ replies mentioning the sender; Shift+R starts a direct message to the sender', async () => {
    const id = await marcusSends('Reply keys', 'answer me');
    await openSelected('Reply keys', id);
    await press('@');
    await expect.poll(() => messageBox().inputValue(), { timeout: WAIT_MS }).toBe(`@**Marcus Reed|${marcus}** `);
    await expect.poll(focusedLabel).toBe('Message');
    await messageBox().fill('');
    await page.keyboard.press('Escape');

    // Letters typed straight after r go into the box (its e edits nothing).
    await press('r');
    await page.keyboard.type('yes');
    await expect(messageBox().inputValue()).resolves.toBe('yes');
    await messageBox().fill('');
    await page.keyboard.press('Escape');

    await press('Shift+R');
    await expect.poll(() => page.getByRole('radio', { name: 'Direct message' }).isChecked(), { timeout: WAIT_MS }).toBe(true);
    await expect(page.getByRole('list', { name: 'Recipients' }).textContent()).resolves.toContain('Marcus Reed');
    await expect.poll(focusedLabel).toBe('Message');
    await page.keyboard.press('Escape');
  });
});

describe('keys in the Inbox and Recent conversations', () => {
  const focusedRow = () => page.evaluate(() => document.activeElement?.closest('[data-row]')?.textContent ?? null);

  test('↓ goes into the Inbox, j and k between its rows, → and ← along one, Shift+M mutes the focused topic and Enter opens one', async () => {
    await marcusSends('Inbox keys one', 'unread one', 'support');
    await marcusSends('Inbox keys two', 'unread two', 'support');
    await goToView('#inbox', 'Inbox');
    await page.getByRole('region', { name: '#support', exact: true }).getByRole('link', { name: /Inbox keys two/ }).waitFor();
    await press('ArrowDown');
    await expect.poll(focusedRow).not.toBeNull();
    // Down the list to the first of the two topics, one row at a time.
    for (let step = 0; step < 40 && !(await focusedRow())?.includes('Inbox keys two'); step++) await page.keyboard.press('j');
    expect(await focusedRow()).toContain('Inbox keys two');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedRow).toContain('Inbox keys one');
    await page.keyboard.press('k');
    await expect.poll(focusedRow).toContain('Inbox keys two');
    await page.keyboard.press('ArrowRight');
    await expect.poll(focusedLabel).toBe('Mark #support › Inbox keys two as read');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(focusedLabel).toMatch(/^Inbox keys two/);

    await page.keyboard.press('Shift+M');
    await page.getByText('You muted the topic “Inbox keys two”.').waitFor();
    const policies = async () => ((await api(page, OLIVIA, 'POST', '/register', { fetch_event_types: ['user_topic'] })).user_topics as { topic_name: string; visibility_policy: number }[]).filter((topic) => topic.topic_name.startsWith('Inbox keys'));
    expect(await policies()).toEqual([expect.objectContaining({ topic_name: 'Inbox keys two', visibility_policy: 1 })]);
    // Muted, it leaves the Inbox; the focus goes on from the row after it.
    await page.getByRole('link', { name: /Inbox keys two/ }).waitFor({ state: 'detached' });
    await expect.poll(focusedRow).toContain('Inbox keys one');

    await page.getByRole('region', { name: '#support', exact: true }).getByRole('link', { name: /Inbox keys one/ }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(hash).toBe('#narrow/channel/7-support/topic/Inbox.20keys.20one');
  });

  test('↓ goes into Recent conversations, to a conversation; j keeps to that column, ← goes to its channel', async () => {
    await goToView('#recent', 'Recent conversations');
    await page.getByRole('list', { name: 'Conversations' }).getByRole('listitem').nth(1).waitFor();
    const focusedClass = () => page.evaluate(() => document.activeElement?.className);
    await press('ArrowDown');
    await expect.poll(focusedClass).toBe('recent-conversation');
    const first = await focusedRow();
    await page.keyboard.press('j');
    await expect.poll(focusedRow).not.toBe(first);
    await expect(focusedClass()).resolves.toBe('recent-conversation');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(focusedClass).toBe('recent-channel');
  });
});

describe('keys while writing', () => {
  test('c writes in the view’s topic; in a view of no one channel (Starred), a new message with no channel chosen yet, the topic’s draft kept', async () => {
    await goToView('#narrow/channel/5-engineering/topic/CI', '#engineering › CI');
    await press('c');
    await expect.poll(focusedLabel, { timeout: WAIT_MS }).toBe('Message');
    expect(await page.getByRole('textbox', { name: 'Topic', exact: true }).inputValue()).toBe('CI');
    await messageBox().fill('a thought about CI');
    await goToView('#narrow/is/starred', 'Starred messages');
    await press('c');
    await expect.poll(focusedLabel, { timeout: WAIT_MS }).toBe('Channel');
    expect(await page.getByRole('combobox', { name: 'Channel' }).inputValue()).toBe('');
    expect(await messageBox().inputValue()).toBe('');
    await goToView('#narrow/channel/5-engineering/topic/CI', '#engineering › CI');
    await expect.poll(() => messageBox().inputValue(), { timeout: WAIT_MS }).toBe('a thought about CI');
    await messageBox().fill('');
    // x in a DM's view writes to its people.
    await goToView(`#narrow/dm/${marcus}-Marcus-Reed`, 'You and Marcus Reed');
    await press('x');
    await expect.poll(focusedLabel, { timeout: WAIT_MS }).toBe('Message');
    await expect(page.getByRole('list', { name: 'Recipients' }).textContent()).resolves.toContain('Marcus Reed');
  });

  test('← in the empty box opens my last message here for editing', async () => {
    const mine = await api(page, OLIVIA, 'POST', '/messages', { type: 'channel', to: 'engineering', topic: 'Arrow key', content: 'my words' });
    await marcusSends('Arrow key', 'a later message, not mine');
    await goTo(page, '#narrow/channel/5-engineering/topic/Arrow.20key');
    await messageElement(page, mine.id as number).waitFor();
    await messageBox().click();
    await page.keyboard.press('ArrowLeft');
    const editor = messageElement(page, mine.id as number).getByRole('textbox');
    await expect.poll(() => editor.inputValue(), { timeout: WAIT_MS }).toBe('my words');
    await expect(selectedId()).resolves.toBe(mine.id);
    await page.keyboard.press('Escape');
  });

  test('Alt+P previews the message and goes back to its text; Ctrl+Shift+L makes the selection a link', async () => {
    await goTo(page, '#narrow/channel/5-engineering/topic/Writing.20keys');
    await messageBox().fill('see docs');
    await messageBox().evaluate((field: HTMLTextAreaElement) => field.setSelectionRange(4, 8));
    await page.keyboard.press('Control+Shift+L');
    await expect(messageBox().inputValue()).resolves.toBe('see [docs](url)');
    await page.keyboard.press('Alt+p');
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.locator('a', { hasText: 'docs' }).waitFor();
    await expect.poll(focusedLabel).toBe('Preview');
    await page.keyboard.press('Alt+p');
    await expect.poll(focusedLabel).toBe('Message');
    await messageBox().fill('');
  });

  test('Ctrl+K searches while writing; Ctrl+. opens the conversation being written to', async () => {
    await goToView('#narrow/channel/5-engineering/topic/CI', '#engineering › CI');
    const topic = page.getByRole('textbox', { name: 'Topic', exact: true });
    // The compose box has followed the view before the topic is changed.
    await expect.poll(() => topic.inputValue(), { timeout: WAIT_MS }).toBe('CI');
    await topic.fill('Elsewhere');
    await messageBox().click();
    await page.keyboard.press('Control+.');
    await expect.poll(hash).toBe('#narrow/channel/5-engineering/topic/Elsewhere');
    await messageBox().click();
    await page.keyboard.press('Control+k');
    await expect.poll(focusedLabel).toBe('Search');
  });
});

describe('keys and fields', () => {
  test('Esc leaves a field (after closing its suggestions), so the keys work again', async () => {
    await goToView('#narrow/channel/5-engineering', '#engineering');
    await press('x');
    const to = page.getByRole('textbox', { name: 'To', exact: true });
    await expect.poll(focusedLabel).toBe('To');
    await to.pressSequentially('Mar');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await expect(focusedLabel()).resolves.toBe('To');
    await page.keyboard.press('Escape');
    await expect.poll(focusedLabel).not.toBe('To');
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    await to.fill('');
    await page.getByRole('radio', { name: 'Channel message' }).check();
    // A radio button keeps the keys too, until Esc.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+I');
    await expect.poll(hash).toBe('#inbox');
  });

  test('on a phone, x or Ctrl+K with the drawer open closes it, the focus in To or Search', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.getByRole('button', { name: 'Channels and conversations' }).click();
      const drawer = page.getByRole('navigation', { name: 'Channels and conversations', exact: true });
      await drawer.waitFor();
      await press('x');
      await drawer.waitFor({ state: 'hidden' });
      await expect.poll(focusedLabel).toBe('To');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Channels and conversations' }).click();
      await drawer.waitFor();
      await page.keyboard.press('Control+k');
      await drawer.waitFor({ state: 'hidden' });
      await expect.poll(focusedLabel).toBe('Search');
      await page.keyboard.press('Escape');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});

describe('keys while a menu or dialog is open', () => {
  test('a menu opened by a click keeps the keys, its focus on its button: : opens no picker beside it and a keeps the view; a dialog chosen in it gives the focus back to ⋯', async () => {
    const id = await marcusSends('menu keys', 'a message to open a menu on');
    await openSelected('menu keys', id);
    await messageElement(page, id).getByRole('button', { name: 'More actions' }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await page.keyboard.press(':');
    await page.keyboard.press('a');
    await page.keyboard.press('Shift+Y');
    // Two frames: whatever the keys opened has been drawn.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await hash()).toMatch(/\/near\/\d+$/);
    await menu.getByRole('menuitem', { name: 'View message source' }).click();
    const source = page.getByRole('dialog', { name: 'Message source' });
    await source.waitFor();
    await page.keyboard.press('Escape');
    await source.waitFor({ state: 'detached' });
    await expect.poll(focusedLabel, { timeout: WAIT_MS }).toBe('More actions');
  });
});

describe('keys that open panels', () => {
  test('w opens Users with its filter focused, q focuses Filter channels, Shift+Y opens Set status, d opens and closes Drafts', async () => {
    await press('w');
    await expect.poll(focusedLabel).toBe('Filter users');
    await press('q');
    // Typed straight after q, "des" goes into the box (its d opens no Drafts).
    await page.keyboard.type('des');
    const filter = page.getByRole('searchbox', { name: 'Filter channels', exact: true });
    await expect(filter.inputValue()).resolves.toBe('des');
    await expect(page.getByRole('heading', { name: 'Drafts' }).count()).resolves.toBe(0);
    await filter.fill('');
    await press('Shift+Y');
    const status = page.getByRole('dialog', { name: 'Set status' });
    await status.waitFor();
    await page.keyboard.press('Escape');
    await status.waitFor({ state: 'detached' });
    await press('d');
    const drafts = page.getByRole('heading', { name: 'Drafts' });
    await drafts.waitFor();
    await press('d');
    await drafts.waitFor({ state: 'detached' });
  });

  test('? lists the keys by section, the new ones among them', async () => {
    await press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    await dialog.getByRole('heading', { name: 'Message actions (the selected message)' }).waitFor();
    await expect(dialog.getByRole('row', { name: 'Shift + M Mute or unmute its topic' }).count()).resolves.toBe(1);
    await expect(dialog.getByRole('row', { name: '/ or Ctrl + K Search messages' }).count()).resolves.toBe(1);
    await page.keyboard.press('?');
    await dialog.waitFor({ state: 'detached' });
  });
});
