import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, goTo, launchBrowser, logInAs, MARCUS, messageElement, newProfile, OLIVIA, openChat, WAIT_MS } from './chat-browser.ts';

let browser: Browser;
let page: Page;
let channelMessage: number;
let dm: number;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await openChat(await newProfile(browser));
  await logInAs(page, 'Olivia Park');
  channelMessage = (await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'muting', content: 'Loud opinions about tabs' })).id;
  dm = (await api(page, MARCUS, 'POST', '/messages', { type: 'direct', to: [8], content: 'Psst, Olivia' })).id;
  await goTo(page, '#narrow/channel/2-general/topic/muting');
  await messageElement(page, channelMessage).getByText('Loud opinions about tabs').waitFor();
});
afterAll(async () => {
  await browser.close();
});

const mutedOnServer = async () => ((await api(page, OLIVIA, 'POST', '/register', { fetch_event_types: ['muted_users'] })).muted_users as { id: number }[]).map((user) => user.id);
const dmList = () => page.getByRole('region', { name: 'Direct messages' });

describe('muting a user', () => {
  test("muted from their card (asked first), their messages hide behind a notice with no name or content, and new ones come read", async () => {
    await messageElement(page, channelMessage).getByRole('button', { name: 'Marcus Reed', exact: true }).click();
    const card = page.getByRole('dialog', { name: 'Marcus Reed' });
    await card.getByRole('button', { name: 'Mute user', exact: true }).click();
    expect(await mutedOnServer()).toEqual([]);
    await card.getByRole('group', { name: 'Mute Marcus Reed' }).getByRole('button', { name: 'Mute', exact: true }).click();
    await card.getByRole('button', { name: 'Unmute user', exact: true }).waitFor();
    expect(await mutedOnServer()).toEqual([9]);
    await card.getByRole('button', { name: 'Close' }).click();

    const hidden = messageElement(page, channelMessage);
    await hidden.getByText('Message from a muted user.').waitFor();
    await expect(hidden.textContent()).resolves.not.toMatch(/Marcus|Loud opinions/);
    const later = (await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'muting', content: 'Still here' })).id;
    await messageElement(page, later).getByText('Message from a muted user.').waitFor();
    expect((await api(page, OLIVIA, 'GET', `/messages/${later}`)).message.flags).toContain('read');
  });

  test('a hidden message is revealed on demand and hidden again from its actions', async () => {
    const message = messageElement(page, channelMessage);
    await message.getByRole('button', { name: 'Reveal message from muted user' }).click();
    await message.getByText('Loud opinions about tabs').waitFor();
    await message.click({ position: { x: 4, y: 4 } });
    await message.getByRole('button', { name: 'More actions', exact: true }).click();
    await message.getByRole('menuitem', { name: 'Hide muted message again' }).click();
    await message.getByText('Message from a muted user.').waitFor();
  });

  test('their one-on-one DM leaves the sidebar and every view but its own, where it stays hidden', async () => {
    await expect(dmList().getByRole('link', { name: /Marcus Reed/ }).count()).resolves.toBe(0);
    await goTo(page, '#narrow/search/Psst');
    await page.getByText('No messages here yet.').waitFor();
    await expect(messageElement(page, dm).count()).resolves.toBe(0);
    await goTo(page, '#narrow/dm/9-Marcus-Reed');
    await messageElement(page, dm).getByText('Message from a muted user.').waitFor();
  });

  test('unmuted in Settings, their messages and their DM show again', async () => {
    await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.getByRole('list', { name: 'Muted users' }).getByText('Marcus Reed').waitFor();
    await page.getByRole('button', { name: 'Unmute Marcus Reed' }).click();
    await page.getByText('You have not muted anyone.', { exact: false }).waitFor();
    await expect.poll(mutedOnServer, { timeout: WAIT_MS }).toEqual([]);
    await messageElement(page, dm).getByText('Psst, Olivia').waitFor();
    await dmList().getByRole('link', { name: /Marcus Reed/ }).waitFor();
  });
});
