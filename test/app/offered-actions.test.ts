import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, HANNAH, launchBrowser, logInAs, messageAction, messageElement, newProfile, newestInTopic, OLIVIA, openChat } from './chat-browser.ts';

let browser: Browser;
let page: Page;
let admins: number;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await openChat(await newProfile(browser), '/#narrow/channel/5-engineering/topic/Release.202.2E4');
  await logInAs(page, 'Hannah Kim');
  const groups = await api(page, OLIVIA, 'GET', '/user_groups');
  admins = (groups.user_groups as { id: number; name: string }[]).find((group) => group.name === 'role:administrators')!.id;
});
afterAll(async () => {
  await browser.close();
});

async function setRealmGroup(setting: string, group: number): Promise<void> {
  const answer = await api(page, OLIVIA, 'PATCH', '/realm', { [setting]: { new: group } });
  expect(answer).toEqual({ result: 'success', msg: '', [setting]: group });
}

/** The items of a message's More actions menu, as Hannah sees them. */
async function moreActions(messageId: number): Promise<string[]> {
  await messageAction(page, messageId, 'More actions');
  const items = await page.getByRole('menu').getByRole('menuitem').allTextContents();
  await page.keyboard.press('Escape');
  return items.map((item) => item.trim());
}

describe('actions offered as the realm’s permission settings allow (a member, Hannah)', () => {
  test('Mark as resolved goes, live, when the realm lets only administrators resolve topics', async () => {
    const resolve = page.getByRole('button', { name: 'Mark as resolved' });
    await resolve.waitFor();
    await setRealmGroup('can_resolve_topics_group', admins);
    await resolve.waitFor({ state: 'detached' });
    // Nothing else in the header went with it.
    await page.getByRole('button', { name: 'Mute topic' }).waitFor();
  });

  test('a message she may not edit offers View message source, its Markdown as written; her own does not', async () => {
    const shown = (
      await api(page, HANNAH, 'GET', '/messages', {
        anchor: 'newest',
        num_before: 20,
        num_after: 0,
        apply_markdown: false,
        narrow: [{ operator: 'channel', operand: 'engineering' }, { operator: 'topic', operand: 'Release 2.4' }],
      })
    ).messages as { id: number; sender_email: string; content: string }[];
    const theirs = shown.filter((message) => message.sender_email !== 'hannah@lakeside.test').at(-1)!;
    expect(await moreActions(theirs.id)).toContain('View message source');
    await messageAction(page, theirs.id, 'More actions');
    await page.getByRole('menuitem', { name: 'View message source' }).click();
    const dialog = page.getByRole('dialog', { name: 'Message source' });
    await expect.poll(() => dialog.getByLabel('Markdown of the message').textContent()).toBe(theirs.content);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    const own = (await api(page, HANNAH, 'POST', '/messages', { type: 'channel', to: 'engineering', topic: 'Release 2.4', content: 'mine to **edit**' })).id as number;
    await messageElement(page, own).waitFor();
    expect(await moreActions(own)).not.toContain('View message source');
  });

  test('Move message goes once she may neither rename topics nor move between channels; with one of them the dialog offers only that', async () => {
    const [message] = await newestInTopic(page, HANNAH, 'engineering', 'Release 2.4', 1);
    const id = (message as unknown as { id: number }).id;
    expect(await moreActions(id)).toContain('Move message');

    await setRealmGroup('can_move_messages_between_channels_group', admins);
    await messageAction(page, id, 'More actions');
    await page.getByRole('menuitem', { name: 'Move message' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move messages' });
    await expect(dialog.getByRole('combobox', { name: 'Destination channel' }).isDisabled()).resolves.toBe(true);
    await expect(dialog.getByRole('textbox', { name: 'New topic' }).isEditable()).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await setRealmGroup('can_move_messages_between_topics_group', admins);
    await expect.poll(() => moreActions(id)).not.toContain('Move message');
    // Nor does the topic menu offer to rename or move the topic; and only administrators delete one.
    await page.getByRole('button', { name: 'Topic actions' }).click();
    await expect(page.getByRole('menu').getByRole('menuitem').allTextContents()).resolves.toEqual(['Copy link to topic']);
    await page.keyboard.press('Escape');
  });
});

describe('creating a channel from Browse channels, as the realm allows (a member, Hannah)', () => {
  const channelsOf = async () => (await api(page, OLIVIA, 'GET', '/streams', { include_all: true })).streams as { stream_id: number; name: string; invite_only: boolean }[];

  test('a member creates a public channel and lands in it; allowed only private ones, the form says so and the channel is private; allowed neither, no button', async () => {
    const hash = () => page.evaluate(() => location.hash);
    await page.getByRole('button', { name: 'Browse channels' }).click();
    await page.getByRole('button', { name: 'Create channel', exact: true }).click();
    let dialog = page.getByRole('dialog', { name: 'Create a channel' });
    await dialog.getByLabel('Channel name').fill('book-club');
    await expect(dialog.getByRole('checkbox', { name: 'Private channel' }).isChecked()).resolves.toBe(false);
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await dialog.waitFor({ state: 'detached' });
    const bookClub = (await channelsOf()).find((channel) => channel.name === 'book-club')!;
    expect(bookClub.invite_only).toBe(false);
    await expect.poll(hash).toBe(`#narrow/channel/${bookClub.stream_id}-book-club`);
    await page.getByRole('heading', { level: 1, name: '#book-club' }).waitFor();

    await setRealmGroup('can_create_public_channel_group', admins);
    await page.getByRole('button', { name: 'Create channel', exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'Create a channel' });
    await dialog.waitFor();
    await dialog.getByText('The channel will be private: you may create private channels only.').waitFor();
    await expect(dialog.getByRole('checkbox', { name: 'Private channel' }).count()).resolves.toBe(0);
    await dialog.getByLabel('Channel name').fill('secret-club');
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await channelsOf()).find((channel) => channel.name === 'secret-club')?.invite_only).toBe(true);

    await setRealmGroup('can_create_private_channel_group', admins);
    await page.getByRole('button', { name: 'Create channel', exact: true }).waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
  });
});

describe('posting where the channel allows (a member, Hannah)', () => {
  test('in #announcements her compose box says she may not post there, Send is off, and typing sends no notice', async () => {
    const typing: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/typing')) typing.push(request.url());
    });
    await page.evaluate(() => (location.hash = '#narrow/channel/1-announcements/topic/News'));
    const form = page.getByRole('form', { name: 'Compose' });
    await form.getByText('You do not have permission to post in this channel.').waitFor();
    await expect(form.getByRole('button', { name: 'Send' }).isDisabled()).resolves.toBe(true);
    await form.getByRole('textbox', { name: 'Message', exact: true }).pressSequentially('hello');
    // A request after the keystrokes: any typing notice they sent has been issued by then.
    await api(page, HANNAH, 'GET', '/users/me');
    expect(typing).toEqual([]);
    // Nor does Ctrl+Enter send it: the text stays, nothing reaches the channel.
    await page.keyboard.press('Control+Enter');
    const newest = await api(page, HANNAH, 'GET', '/messages', { anchor: 'newest', num_before: 3, num_after: 0, narrow: [{ operator: 'channel', operand: 'announcements' }], apply_markdown: false });
    expect((newest.messages as { content: string }[]).map((message) => message.content)).not.toContain('hello');
    await expect(form.getByRole('textbox', { name: 'Message', exact: true }).inputValue()).resolves.toBe('hello');
    await form.getByRole('textbox', { name: 'Message', exact: true }).fill('');

    // A channel she may post in: no such word, Send on.
    await page.evaluate(() => (location.hash = '#narrow/channel/2-general/topic/News'));
    await form.getByText('You do not have permission to post in this channel.').waitFor({ state: 'detached' });
    await expect(form.getByRole('button', { name: 'Send' }).isDisabled()).resolves.toBe(false);
  });
});
