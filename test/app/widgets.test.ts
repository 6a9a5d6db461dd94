import type { Browser, Locator, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, goTo, launchBrowser, logInAs, MARCUS, messageElement, newProfile, OLIVIA, openChat, send, WAIT_MS } from './chat-browser.ts';

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await openChat(await newProfile(browser));
  await logInAs(page, 'Olivia Park');
  await goTo(page, '#narrow/channel/2-general/topic/widgets');
});
afterAll(async () => {
  await browser.close();
});

/** The message's submessages' data as the server holds them, after the widget's own. */
async function changesOnServer(id: number): Promise<[string, Record<string, unknown>][]> {
  const { message } = await api(page, OLIVIA, 'GET', `/messages/${id}`);
  return (message.submessages as { sender_id: number; content: string }[]).slice(1).map((submessage) => [String(submessage.sender_id), JSON.parse(submessage.content)]);
}
async function newestId(): Promise<number> {
  const { messages } = await api(page, OLIVIA, 'GET', '/messages', { anchor: 'newest', num_before: 1, num_after: 0 });
  return messages[0].id as number;
}
const vote = (widget: Locator, option: string) => widget.getByRole('button', { name: new RegExp(`^${option}: `) });

describe('a poll', () => {
  let id: number;
  let poll: Locator;

  test('sent as /poll from the compose box shows its question and options to vote in, not its text', async () => {
    await send(page, '/poll Where do we eat?\nPizza\nSushi');
    id = await newestId();
    poll = messageElement(page, id).getByRole('region', { name: 'Poll' });
    await poll.getByRole('heading', { name: 'Where do we eat?' }).waitFor();
    await expect(vote(poll, 'Pizza').getAttribute('aria-label')).resolves.toBe('Pizza: 0 votes');
    await expect(messageElement(page, id).locator('.message-content').isVisible()).resolves.toBe(false);
    // Its text cannot be edited (the server refuses widgets): no Edit among its actions, and `e` opens no editor.
    await expect(messageElement(page, id).getByRole('button', { name: 'Edit', exact: true }).count()).resolves.toBe(0);
    // A click replies to it, as upstream's: Esc leaves the compose box for the keys.
    await messageElement(page, id).click({ position: { x: 4, y: 4 } });
    await page.keyboard.press('Escape');
    await page.keyboard.press('e');
    // Two frames: Preact has drawn whatever the key changed.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await expect(page.getByRole('textbox', { name: 'Edit message' }).count()).resolves.toBe(0);
  });

  test('a vote by click is the server’s, another click takes it back; another person’s vote shows at once, with their name', async () => {
    await vote(poll, 'Sushi').click();
    await expect.poll(() => vote(poll, 'Sushi').getAttribute('aria-label'), { timeout: WAIT_MS }).toBe('Sushi: 1 vote, yours among them');
    await expect(vote(poll, 'Sushi').getAttribute('aria-pressed')).resolves.toBe('true');
    await api(page, MARCUS, 'POST', '/submessage', { message_id: id, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) });
    await expect.poll(() => vote(poll, 'Pizza').getAttribute('aria-label'), { timeout: WAIT_MS }).toBe('Pizza: 1 vote');
    await expect(poll.locator('.poll-option', { hasText: 'Pizza' }).textContent()).resolves.toContain('(Marcus Reed)');
    await vote(poll, 'Sushi').click();
    await expect.poll(() => vote(poll, 'Sushi').getAttribute('aria-label'), { timeout: WAIT_MS }).toBe('Sushi: 0 votes');
    const olivia = String((await api(page, OLIVIA, 'GET', '/users/me')).user_id);
    expect((await changesOnServer(id)).filter(([sender]) => sender === olivia).map(([, data]) => data)).toEqual([
      { type: 'vote', key: 'canned,1', vote: 1 },
      { type: 'vote', key: 'canned,1', vote: -1 },
    ]);
  });

  test('an option added from the keyboard joins the poll; its author changes the question', async () => {
    const field = poll.getByRole('textbox', { name: 'New option' });
    await field.fill('Tacos');
    await field.press('Enter');
    await vote(poll, 'Tacos').waitFor({ timeout: WAIT_MS });
    await poll.getByRole('button', { name: 'Edit question' }).click();
    const question = poll.getByRole('textbox', { name: 'Question' });
    await question.fill('Where do we eat on Friday?');
    await question.press('Enter');
    await poll.getByRole('heading', { name: 'Where do we eat on Friday?' }).waitFor({ timeout: WAIT_MS });
    expect((await changesOnServer(id)).slice(-2).map(([, data]) => data)).toEqual([
      { type: 'new_option', idx: 1, option: 'Tacos' },
      { type: 'question', question: 'Where do we eat on Friday?' },
    ]);
    // Enter on a focused option votes (the message is selected: Enter there would otherwise reply).
    await vote(poll, 'Tacos').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => vote(poll, 'Tacos').getAttribute('aria-label'), { timeout: WAIT_MS }).toBe('Tacos: 1 vote, yours among them');
    await expect(page.getByRole('textbox', { name: 'Message', exact: true }).evaluate((box) => box === document.activeElement)).resolves.toBe(false);
  });
});

describe('the compose box', () => {
  test('typing / at a message’s start offers /poll, /todo and /me; Enter takes the one chosen', async () => {
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.click();
    await box.pressSequentially('/');
    const suggestions = page.getByRole('form', { name: 'Compose' }).locator('.typeahead');
    await expect.poll(() => suggestions.getByRole('option').allTextContents()).toEqual([
      expect.stringMatching(/^\/poll/),
      expect.stringMatching(/^\/todo/),
      expect.stringMatching(/^\/me/),
    ]);
    await box.pressSequentially('to');
    await suggestions.getByRole('option', { name: /^\/todo/, selected: true }).waitFor();
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('/todo ');
    await box.fill('');
  });
});

describe('a to-do list', () => {
  test('sent as /todo lists its tasks; a task added and one ticked are the server’s', async () => {
    await send(page, '/todo Launch\n- Write notes: for the team\n- Ship');
    const id = await newestId();
    const list = messageElement(page, id).getByRole('region', { name: 'To-do list' });
    await list.getByRole('heading', { name: 'Launch' }).waitFor();
    await list.getByRole('textbox', { name: 'New task' }).fill('Celebrate');
    await list.getByRole('button', { name: 'Add task' }).click();
    const celebrate = list.getByRole('checkbox', { name: 'Celebrate' });
    await celebrate.waitFor({ timeout: WAIT_MS });
    await list.getByRole('checkbox', { name: 'Ship' }).check();
    await expect.poll(() => list.getByRole('checkbox', { name: 'Ship' }).isChecked(), { timeout: WAIT_MS }).toBe(true);
    await expect(list.getByRole('checkbox', { name: 'Write notes: for the team' }).isChecked()).resolves.toBe(false);
    expect((await changesOnServer(id)).map(([, data]) => data)).toEqual([
      { type: 'new_task', key: 1, task: 'Celebrate', desc: '', completed: false },
      { type: 'strike', key: '1,canned' },
    ]);
  });
});
