import type { Browser, Locator, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  api, goTo, launchBrowser, logInAs, messageAction, messageElement, messageWithText, newestInTopic, newProfile, OLIVIA, openChat, send, storedDrafts, WAIT_MS, waitAppReady,
} from './chat-browser.ts';

/** #general, a topic of this file's own: its draft is the only one there. */
const TOPIC_HASH = '#narrow/channel/2-general/topic/compose.20tools';

let browser: Browser;
let page: Page;
let compose: Locator;
let box: Locator;

beforeAll(async () => {
  browser = await launchBrowser();
  const profile = await newProfile(browser);
  page = await openChat(profile);
  await logInAs(page, 'Olivia Park');
  await goTo(page, TOPIC_HASH);
  compose = page.getByRole('form', { name: 'Compose' });
  box = compose.getByRole('textbox', { name: 'Message', exact: true });
  await page.waitForFunction(() => (document.querySelector('input[aria-label="Topic"]') as HTMLInputElement | null)?.value === 'compose tools', undefined, {
    timeout: WAIT_MS,
  });
});
afterAll(async () => {
  await browser.close();
});

/** Waits for the message box to hold `text`; a timeout names what it held instead. */
async function boxHolds(text: string): Promise<void> {
  await expect.poll(() => box.inputValue(), { timeout: WAIT_MS }).toBe(text);
}

/** Whether some draft kept in the browser holds `text`. */
async function draftStored(text: string): Promise<boolean> {
  return Object.values(await storedDrafts(page)).includes(text);
}

describe('the compose box', () => {
  test('Preview shows the server’s rendering in place of the text, and Edit brings the text back', async () => {
    await page.bringToFront();
    await box.fill('Some **bold** words');
    const preview = compose.getByRole('button', { name: 'Preview', exact: true });
    await expect(preview.getAttribute('aria-pressed')).resolves.toBe('false');
    await preview.click();

    const rendered = compose.getByRole('region', { name: 'Preview' });
    await expect(rendered.locator('strong').textContent()).resolves.toBe('bold');
    await box.waitFor({ state: 'hidden' });
    const edit = compose.getByRole('button', { name: 'Edit', exact: true });
    await expect(edit.getAttribute('aria-pressed')).resolves.toBe('true');

    await edit.click();
    await box.waitFor();
    await expect(box.inputValue()).resolves.toBe('Some **bold** words');
    await rendered.waitFor({ state: 'detached' });
    await box.fill('');
  });

  test('Ctrl+B makes the selected words bold and Ctrl+I italic; again, plain; the words stay selected', async () => {
    await page.bringToFront();
    await box.fill('make this stand out');
    await box.evaluate((field: HTMLTextAreaElement) => field.setSelectionRange(5, 9));
    await box.press('Control+b');
    await boxHolds('make **this** stand out');
    await box.press('Control+i');
    await boxHolds('make ***this*** stand out');
    await expect(box.evaluate((field: HTMLTextAreaElement) => field.value.slice(field.selectionStart, field.selectionEnd))).resolves.toBe('this');
    await box.press('Control+b');
    await box.press('Control+i');
    await boxHolds('make this stand out');
    // Each change is one step of the field's undo history, as typing is.
    await box.press('Control+z');
    await boxHolds('make *this* stand out');
    await box.press('Control+z');
    await box.press('Control+z');
    await boxHolds('make **this** stand out');
    await box.fill('');
  });

  test('typing @ offers the user groups I may mention and the wildcards, as upstream', async () => {
    await api(page, OLIVIA, 'POST', '/user_groups/create', { name: 'launch-crew', description: 'Ships 2.4', members: [8, 9] });
    await page.bringToFront();
    await box.click();
    await box.pressSequentially('Heads up @launch');
    await compose.getByRole('option', { name: /^launch-crew/, selected: true }).waitFor();
    await box.press('Enter');
    await boxHolds('Heads up @*launch-crew* ');
    await box.pressSequentially('and @top');
    await compose.getByRole('option', { name: /^topic/, selected: true }).waitFor();
    await box.press('Enter');
    await boxHolds('Heads up @*launch-crew* and @**topic** ');
    await box.fill('');
  });

  test('what is typed right after a suggestion is taken goes after it (a busy machine types faster than it draws)', async () => {
    await page.bringToFront();
    await box.click();
    await box.pressSequentially('Ask @hann');
    await compose.getByRole('option', { name: /^Hannah Kim/, selected: true }).waitFor();
    // Enter, then more text, in one task: before any frame or redraw could come between.
    const after = await box.evaluate(async (field: HTMLTextAreaElement) => {
      field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
      document.execCommand('insertText', false, 'now');
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return [field.value, field.selectionStart];
    });
    expect(after).toEqual(['Ask @**Hannah Kim** now', 23]);
    await boxHolds('Ask @**Hannah Kim** now');
    await box.fill('');
  });

  test('typing @hann offers Hannah Kim, and Enter puts in her mention', async () => {
    await page.bringToFront();
    await box.click();
    await box.pressSequentially('Hi @hann');
    await compose.getByRole('option', { name: /^Hannah Kim/, selected: true }).waitFor();
    await box.press('Enter');
    await boxHolds('Hi @**Hannah Kim** ');
    await box.fill('');
  });

  test('typing :cano offers :canoe: from the server’s emoji data, and Enter puts it in', async () => {
    await page.bringToFront();
    await box.click();
    await box.pressSequentially('Off we go :cano');
    // Chosen, not just shown: `:can` lists it too, under `:candy:`.
    await compose.getByRole('option', { name: ':canoe:', selected: true }).waitFor();
    await box.press('Enter');
    await boxHolds('Off we go :canoe: ');
    await box.fill('');
  });

  test('a draft typed in a topic is there again after the tab reloads', async () => {
    await page.bringToFront();
    await box.fill('a draft that outlives the tab');
    await expect.poll(() => draftStored('a draft that outlives the tab'), { timeout: WAIT_MS }).toBe(true);

    await page.reload();
    await waitAppReady(page);
    await boxHolds('a draft that outlives the tab');
    await box.fill('');
    await expect.poll(() => draftStored('a draft that outlives the tab'), { timeout: WAIT_MS }).toBe(false);
  });

  test('Format puts Markdown around the selection: a quote block, a link with its url selected; each undoable', async () => {
    await page.bringToFront();
    await box.fill('They said ship it');
    await box.evaluate((field: HTMLTextAreaElement) => field.setSelectionRange(10, 17));
    const format = compose.getByRole('button', { name: 'Format', exact: true });
    await format.click();
    // The menu has the focus: the keyboard picks as well as the mouse.
    await page.keyboard.press('ArrowDown');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Italic');
    await compose.getByRole('menu', { name: 'Format' }).getByRole('menuitem', { name: 'Quote' }).click();
    await boxHolds('They said \n```quote\nship it\n```');
    await box.press('Control+z');
    await boxHolds('They said ship it');

    await box.evaluate((field: HTMLTextAreaElement) => field.setSelectionRange(10, 17));
    await format.click();
    await compose.getByRole('menuitem', { name: 'Link' }).click();
    await boxHolds('They said [ship it](url)');
    await expect(box.evaluate((field: HTMLTextAreaElement) => field.value.slice(field.selectionStart, field.selectionEnd))).resolves.toBe('url');
    await box.fill('');
  });

  test('a link to a channel no one can see leaves the recipient unset: nothing is sent there, not even typing notices', async () => {
    await page.bringToFront();
    // Typing notices the box starts from here (a stop for earlier typing elsewhere may still come).
    const typing: string[] = [];
    const onRequest = (request: { url(): string; postData(): string | null }) =>
      request.url().includes('/typing') && request.postData()?.includes('op=start') && typing.push(request.postData() ?? '');
    page.on('request', onRequest);
    await goTo(page, '#narrow/channel/999-nope');
    await compose.getByRole('combobox', { name: 'Channel' }).waitFor();
    await expect(compose.getByRole('combobox', { name: 'Channel' }).inputValue()).resolves.toBe('');
    await box.pressSequentially('hello?');
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    await compose.getByRole('alert').filter({ hasText: 'Choose a channel.' }).waitFor();
    page.off('request', onRequest);
    expect(typing).toEqual([]);
    await box.fill('');
    await goTo(page, TOPIC_HASH);
  });

  test('Insert emoji puts the one picked at the caret as its name, undoable as typing is', async () => {
    await page.bringToFront();
    await box.fill('Great work team');
    await box.evaluate((field: HTMLTextAreaElement) => field.setSelectionRange(10, 10));
    await compose.getByRole('button', { name: 'Insert emoji' }).click();
    const picker = page.getByRole('dialog', { name: 'Insert emoji' });
    await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('tada');
    await page.keyboard.press('Enter');
    await boxHolds('Great work :tada: team');
    await picker.waitFor({ state: 'detached' });
    // The focus is back in the box, after the emoji.
    await expect(box.evaluate((field: HTMLTextAreaElement) => [field === document.activeElement, field.selectionStart])).resolves.toEqual([true, 17]);
    await box.press('Control+z');
    await boxHolds('Great work team');
    await box.fill('');
  });

  test('the message so far saved as a snippet goes into an empty box, and can be deleted', async () => {
    await page.bringToFront();
    await box.fill('Thanks, I will look into it.');
    const snippets = compose.getByRole('button', { name: 'Snippets', exact: true });
    const menu = compose.getByRole('group', { name: 'Saved snippets' });
    await snippets.click();
    await menu.getByRole('button', { name: 'Save as snippet' }).click();
    await menu.getByRole('textbox', { name: 'Snippet title' }).fill('Looking into it');
    await menu.getByRole('button', { name: 'Save', exact: true }).click();
    await menu.getByRole('button', { name: 'Looking into it', exact: true }).waitFor();
    await expect(menu.getByRole('status').textContent()).resolves.toBe('Saved “Looking into it”.');
    // Esc closes the list and gives the focus back to its button.
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect(snippets.evaluate((button) => button === document.activeElement)).resolves.toBe(true);
    const saved = await api(page, OLIVIA, 'GET', '/saved_snippets');
    expect(saved.saved_snippets).toContainEqual(expect.objectContaining({ title: 'Looking into it', content: 'Thanks, I will look into it.' }));

    await box.fill('');
    await snippets.click();
    await menu.getByRole('button', { name: 'Looking into it', exact: true }).click();
    await boxHolds('Thanks, I will look into it.');
    await menu.waitFor({ state: 'detached' });

    await snippets.click();
    await menu.getByRole('button', { name: 'Delete snippet Looking into it' }).click();
    // The focus leaves the button that is going away at once, whether the event or the answer comes first.
    await expect(menu.getByRole('button', { name: 'Save as snippet' }).evaluate((button) => button === document.activeElement)).resolves.toBe(true);
    await menu.getByRole('button', { name: 'Looking into it', exact: true }).waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    const left = await api(page, OLIVIA, 'GET', '/saved_snippets');
    expect((left.saved_snippets as { title: string }[]).map((s) => s.title)).not.toContain('Looking into it');
    await box.fill('');
  });

  test('a message scheduled for later is listed in the Scheduled messages panel, and deleting it there removes it', async () => {
    await page.bringToFront();
    const text = 'the weekly summary, an hour from now';
    await box.fill(text);
    await compose.getByRole('button', { name: 'Schedule', exact: true }).click();
    const sendAt = compose.getByLabel('Send at');
    // The fields fill their default once shown.
    await expect.poll(() => sendAt.inputValue(), { timeout: WAIT_MS }).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    await compose.getByRole('button', { name: 'Schedule message' }).click();
    await boxHolds('');
    await sendAt.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
    await page.getByRole('menuitem', { name: 'Scheduled messages' }).click();
    const panel = page.getByRole('complementary', { name: 'Scheduled messages' });
    const entry = panel.getByRole('listitem').filter({ hasText: text });
    await entry.waitFor();

    // Edit takes it back into the box; Cancel leaves it scheduled as it was.
    await entry.getByRole('button', { name: 'Edit' }).click();
    await boxHolds(text);
    const note = compose.getByText('Editing a scheduled message');
    await note.waitFor();
    await compose.getByRole('button', { name: 'Cancel', exact: true }).click();
    await note.waitFor({ state: 'detached' });
    await boxHolds('');

    // The field started an hour from now (to the minute, on the user's clock).
    const scheduled = await api(page, OLIVIA, 'GET', '/scheduled_messages');
    const mine = (scheduled.scheduled_messages as { content: string; scheduled_delivery_timestamp: number }[]).find((m) => m.content === text);
    expect(Math.abs(mine!.scheduled_delivery_timestamp - (Date.now() / 1000 + 3600))).toBeLessThan(180);
    await entry.getByRole('button', { name: 'Delete' }).click();
    await entry.waitFor({ state: 'detached' });
    const after = await api(page, OLIVIA, 'GET', '/scheduled_messages');
    expect(after.result).toBe('success');
    expect((after.scheduled_messages as { content: string }[]).map((m) => m.content)).not.toContain(text);
  });

  test('Remind me about this sets a reminder on the server, listed with the scheduled messages, where it can be cancelled', async () => {
    await page.bringToFront();
    const sent = await api(page, OLIVIA, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'compose tools', content: 'Q3 numbers are in the sheet' });
    const id = sent.id as number;
    await page.locator(`[data-message-id="${id}"]`).waitFor();
    await messageAction(page, id, 'More actions');
    await page.getByRole('menuitem', { name: 'Remind me about this' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remind me about this' });
    await dialog.getByLabel('Note (optional)').fill('check the numbers');
    await dialog.getByRole('button', { name: 'In 1 hour' }).click();
    await dialog.waitFor({ state: 'detached' });
    const reminders = async () => (await api(page, OLIVIA, 'GET', '/reminders')).reminders as { reminder_id: number; reminder_target_message_id: number; scheduled_delivery_timestamp: number }[];
    await expect.poll(async () => (await reminders()).map((reminder) => reminder.reminder_target_message_id), { timeout: WAIT_MS }).toEqual([id]);
    expect(Math.abs((await reminders())[0].scheduled_delivery_timestamp - (Date.now() / 1000 + 3600))).toBeLessThan(180);

    // The test before leaves the panel open; the menu item would close it.
    if (!(await page.getByRole('complementary', { name: 'Scheduled messages and reminders' }).isVisible())) {
      await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
      await page.getByRole('menuitem', { name: 'Scheduled messages and reminders' }).click();
    }
    const listed = page.getByRole('list', { name: 'Reminders' }).getByRole('listitem');
    await expect.poll(() => listed.count()).toBe(1);
    await expect(listed.textContent()).resolves.toContain('check the numbers');
    await listed.getByRole('button', { name: 'Cancel reminder' }).click();
    await expect.poll(reminders, { timeout: WAIT_MS }).toEqual([]);
    await listed.waitFor({ state: 'detached' });
  });

  test('text typed while a send is on its way stays in the box once it has gone', async () => {
    await page.bringToFront();
    // The send is held in the page until the test lets it go, as on a slow link to a hub.
    await page.evaluate(() => {
      const original = window.fetch;
      const held = new Promise<void>((resolve) => Object.assign(window, { releaseSend: resolve }));
      window.fetch = async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
        if (method === 'POST' && new URL(url, location.href).pathname === '/api/v1/messages') {
          await held;
          window.fetch = original;
        }
        return original(input, init);
      };
    });
    await box.fill('sent while the link is slow');
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    await box.press('End');
    await box.pressSequentially(' and the next thought');
    await page.evaluate(() => (window as unknown as { releaseSend: () => void }).releaseSend());
    await page.locator('[data-message-id]', { hasText: 'sent while the link is slow' }).waitFor();
    await boxHolds('and the next thought');
    await box.fill('');
  });

  test('a text past the length limit stays whole in the box, which says by how much it is over and will not send it', async () => {
    await page.bringToFront();
    const send = compose.getByRole('button', { name: 'Send', exact: true });
    const long = 'x'.repeat(10_050);
    await box.fill(long);
    const held = () => box.inputValue().then((text) => text.length);
    await expect.poll(held, { timeout: WAIT_MS }).toBe(long.length);
    await compose.getByText('50 characters over the limit of 10000', { exact: true }).waitFor();
    expect(await send.isDisabled()).toBe(true);
    // One unbroken line wraps in the box: the page keeps its width, Send in view.
    const sendBox = (await send.boundingBox())!;
    expect(sendBox.x + sendBox.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    expect((await box.boundingBox())!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    await box.press('Control+Enter');
    await compose.getByRole('alert').filter({ hasText: "Message length shouldn't be greater than 10000 characters." }).waitFor();
    expect(await held()).toBe(long.length);

    // Characters are counted as the server counts them: an emoji is one.
    await box.fill('😀'.repeat(9_200));
    const left = compose.getByText('800 characters left', { exact: true });
    await left.waitFor();
    expect(await send.isDisabled()).toBe(false);
    await box.fill('');
    await left.waitFor({ state: 'detached' });
  });

  test('Drafts, counted in the sidebar, lists the text left in a conversation as it is written; Restore brings it back into the box there, Delete drops it', async () => {
    await page.bringToFront();
    const draftsView = page.getByRole('navigation', { name: 'Channels and conversations' }).getByRole('button', { name: /^Drafts/ });
    const counted = async () => Number((await draftsView.textContent())?.replace('Drafts', '') || 0);
    await box.fill('a thought for later');
    await goTo(page, '#narrow/channel/5-engineering');
    await boxHolds('');
    await draftsView.click();
    const drafts = page.getByRole('complementary', { name: 'Drafts' }).getByRole('list', { name: 'Drafts' });
    const entry = drafts.getByRole('listitem').filter({ hasText: 'a thought for later' });
    await expect(entry.locator('.draft-where').textContent()).resolves.toBe('#general › compose tools');
    const listed = await drafts.getByRole('listitem').count();
    await expect.poll(counted, { timeout: WAIT_MS }).toBe(listed);

    await entry.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('heading', { name: '#general › compose tools' }).waitFor();
    await boxHolds('a thought for later');

    // The open list follows the box: a draft changed there changes in the list.
    await draftsView.click();
    await box.fill('a thought for later, rewritten');
    await drafts.getByRole('listitem').filter({ hasText: 'a thought for later, rewritten' }).waitFor();
    await entry.getByRole('button', { name: 'Delete' }).click();
    await entry.waitFor({ state: 'detached' });
    await expect.poll(() => draftStored('a thought for later, rewritten'), { timeout: WAIT_MS }).toBe(false);
    await expect.poll(counted, { timeout: WAIT_MS }).toBe(listed - 1);
    await page.getByRole('button', { name: 'Close panel' }).click();
    await box.fill('');
  });

  test('Enter in Topic or To goes on to the message and sends nothing; a wrong recipient’s error goes once the recipient is fixed', async () => {
    await page.bringToFront();
    const topic = compose.getByRole('textbox', { name: 'Topic' });
    await box.fill('written before its topic');
    await topic.fill('enter in topic');
    await topic.press('Enter');
    await expect.poll(() => box.evaluate((element) => element === document.activeElement), { timeout: WAIT_MS }).toBe(true);
    expect(await box.inputValue()).toBe('written before its topic');
    expect(await newestInTopic(page, OLIVIA, 'general', 'enter in topic', 1)).toEqual([]);

    await compose.getByRole('radio', { name: 'Direct message' }).check();
    const to = compose.getByRole('textbox', { name: 'To' });
    await to.fill('nobody@nowhere.test');
    await to.press('Enter');
    await expect.poll(() => box.evaluate((element) => element === document.activeElement), { timeout: WAIT_MS }).toBe(true);
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    const refused = compose.getByRole('alert').filter({ hasText: 'Unknown recipient: nobody@nowhere.test' });
    await refused.waitFor();
    await to.fill('hannah@lakeside.test');
    await refused.waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe('written before its topic');

    await compose.getByRole('radio', { name: 'Channel message' }).check();
    await box.fill('');
    await topic.fill('compose tools');
  });

  test('To shows a direct message’s people as pills by name: typing offers people, Enter or a comma makes a pill, Backspace removes the last; a send reaches them all', async () => {
    await page.bringToFront();
    await goTo(page, '#narrow/dm/9-Marcus-Reed');
    const pills = compose.getByRole('list', { name: 'Recipients' });
    const pill = (name: string) => pills.getByRole('listitem').filter({ hasText: name });
    await pill('Marcus Reed').waitFor();
    expect(await pills.textContent()).not.toContain('marcus@lakeside.test');
    const to = compose.getByRole('textbox', { name: 'To' });
    expect(await to.inputValue()).toBe('');

    await to.pressSequentially('han');
    await page.getByRole('option', { name: /Hannah Kim/ }).waitFor();
    await to.press('Enter');
    await pill('Hannah Kim').waitFor();
    expect(await to.inputValue()).toBe('');
    await to.pressSequentially('sam@lakeside.test,');
    await pill('Sam Okafor').waitFor();
    await to.press('Backspace');
    await pill('Sam Okafor').waitFor({ state: 'detached' });
    expect(await compose.getByRole('button', { name: 'Remove Hannah Kim' }).count()).toBe(1);

    await send(page, 'to the pills');
    const { messages } = await api(page, OLIVIA, 'GET', '/messages', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: 'dm', operand: 'marcus@lakeside.test,hannah@lakeside.test' }],
    });
    expect((messages as { content: string }[]).map((message) => message.content)).toEqual([expect.stringContaining('to the pills')]);
    await goTo(page, TOPIC_HASH);
    await expect.poll(() => compose.getByRole('textbox', { name: 'Topic' }).inputValue(), { timeout: WAIT_MS }).toBe('compose tools');
  });

  test('a click on a message replies to it: the box takes its topic and the focus; in a search, its conversation opens at it instead', async () => {
    await page.bringToFront();
    const [other] = (await api(page, OLIVIA, 'GET', '/messages', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: 'general' },
        { operator: 'topic', operand: 'compose tools', negated: true },
      ],
    })).messages as { id: number; subject: string }[];
    await goTo(page, '#narrow/channel/2-general');
    await messageElement(page, other.id).locator('.message-content').click();
    await expect.poll(() => compose.getByRole('textbox', { name: 'Topic' }).inputValue(), { timeout: WAIT_MS }).toBe(other.subject);
    await expect.poll(() => box.evaluate((element) => element === document.activeElement), { timeout: WAIT_MS }).toBe(true);
    expect(await messageElement(page, other.id).getAttribute('class')).toContain('selected');

    // A search finds messages out of their conversation: a click opens the conversation there.
    const searched = page.getByRole('searchbox', { name: 'Search' });
    await searched.fill(`id:${other.id}`);
    await searched.press('Enter');
    await messageElement(page, other.id).locator('.message-content').click();
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: WAIT_MS }).toMatch(new RegExp(`^#narrow/channel/2-general/topic/[^/]+/near/${other.id}$`));
    await goTo(page, TOPIC_HASH);
    await expect.poll(() => compose.getByRole('textbox', { name: 'Topic' }).inputValue(), { timeout: WAIT_MS }).toBe('compose tools');
  });

  test('a message sent where the view does not show it says so, with a link to it in its conversation, whose bar reads Today', async () => {
    await page.bringToFront();
    const topic = compose.getByRole('textbox', { name: 'Topic' });
    await topic.fill('sent out of this view');
    await send(page, 'to a topic not shown here');
    const banner = compose.getByRole('status').filter({ hasText: 'Sent! Your message is outside your current view.' });
    const [sent] = (await newestInTopic(page, OLIVIA, 'general', 'sent out of this view', 1)) as unknown as { id: number }[];
    await banner.getByRole('link', { name: '#general › sent out of this view' }).click();
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: WAIT_MS }).toBe(`#narrow/channel/2-general/topic/sent.20out.20of.20this.20view/near/${sent.id}`);
    await banner.waitFor({ state: 'detached' });
    await expect.poll(() => messageElement(page, sent.id).getAttribute('class'), { timeout: WAIT_MS }).toContain('selected');
    await expect(page.locator('.recipient-header .recipient-day').last().textContent()).resolves.toBe('Today');
    // A view opened after the send, its message below the first unread, does not announce it as sent there.
    await goTo(page, '');
    await page.getByRole('heading', { level: 1, name: 'Combined feed' }).waitFor();
    await page.locator('.message-rows [data-message-id]').first().waitFor();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(resolve)))));
    expect(await page.getByRole('button', { name: 'Scroll down to view your message.' }).count()).toBe(0);

    // Sent where it shows: no banner.
    await goTo(page, `#narrow/channel/2-general/topic/sent.20out.20of.20this.20view`);
    await expect.poll(() => topic.inputValue(), { timeout: WAIT_MS }).toBe('sent out of this view');
    await send(page, 'shown where it was sent');
    await messageWithText(page, 'shown where it was sent').waitFor();
    expect(await banner.count()).toBe(0);
    await goTo(page, TOPIC_HASH);
    await expect.poll(() => topic.inputValue(), { timeout: WAIT_MS }).toBe('compose tools');
  });

  test('Enter key options beside Send choose whether Enter or Ctrl+Enter sends, kept by the server; the focus goes back to the message', async () => {
    await page.bringToFront();
    const enterSends = async () => (await api(page, OLIVIA, 'POST', '/register', { fetch_event_types: ['user_settings'] })).user_settings.enter_sends;
    const options = compose.getByRole('button', { name: 'Enter key options' });
    await options.click();
    await page.getByRole('menu', { name: 'Enter key options' }).getByRole('menuitemradio', { name: 'Enter sends', exact: true }).click();
    await expect.poll(enterSends, { timeout: WAIT_MS }).toBe(true);
    await expect.poll(() => box.getAttribute('placeholder'), { timeout: WAIT_MS }).toBe('Message (Enter sends, Shift+Enter for a new line)');
    await expect(box.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await box.pressSequentially('sent by Enter');
    await box.press('Enter');
    await boxHolds('');
    expect((await newestInTopic(page, OLIVIA, 'general', 'compose tools', 1))[0].content).toBe('<p>sent by Enter</p>');

    await options.click();
    const ctrlEnter = page.getByRole('menuitemradio', { name: 'Ctrl+Enter sends', exact: true });
    await expect(ctrlEnter.getAttribute('aria-checked')).resolves.toBe('false');
    await ctrlEnter.click();
    await expect.poll(enterSends, { timeout: WAIT_MS }).toBe(false);
  });
});
