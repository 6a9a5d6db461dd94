import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, goTo, HANNAH, launchBrowser, logInAs, MARCUS, newProfile, openChat, WAIT_MS } from './chat-browser.ts';

let browser: Browser;
let profile: BrowserContext;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  profile = await newProfile(browser);
  page = await openChat(profile, '/');
  await logInAs(page, 'Olivia Park');
});
afterAll(async () => {
  await browser.close();
});

const users = () => page.getByRole('list', { name: 'Users' });
const userRow = (name: string) => users().getByRole('listitem').filter({ hasText: name });
/** The presence a row shows, by its circle's accessible name. */
const presenceOf = (name: string) => userRow(name).getByRole('img').getAttribute('aria-label');

describe('who is here: the Users panel', () => {
  test('lists the realm’s people, me first and active, the others offline until they report', async () => {
    await page.getByRole('button', { name: 'Users' }).click();
    await expect.poll(() => presenceOf('Olivia Park')).toBe('Active');
    await expect(presenceOf('Marcus Reed')).resolves.toBe('Offline');
    const names = await users().getByRole('listitem').allTextContents();
    expect(names[0]).toBe('Olivia Park(you)');
    expect(names.some((name) => name.includes('Build Bot'))).toBe(false);
  });

  test('a person logging in in another tab turns active at once, and moves up among the active', async () => {
    const other = await openChat(profile, '/');
    await logInAs(other, 'Marcus Reed');
    await page.bringToFront();
    await expect.poll(() => presenceOf('Marcus Reed')).toBe('Active');
    const names = await users().getByRole('listitem').allTextContents();
    expect(names.slice(0, 2)).toEqual(['Olivia Park(you)', 'Marcus Reed']);
    // The sidebar's DM with him shows it too.
    await expect(page.getByRole('navigation').getByRole('link', { name: /Marcus Reed/ }).getByRole('img').getAttribute('aria-label')).resolves.toBe('Active');
    await other.close();
  });

  test('a report through the API (any client of the server) shows as well', async () => {
    const answer = await api(page, HANNAH, 'POST', '/users/me/presence', { status: 'active' });
    expect(answer.result).toBe('success');
    await expect.poll(() => presenceOf('Hannah Kim')).toBe('Active');
  });

  test('the filter keeps the matching names; a name opens our direct messages, its ⋮ the person’s card with their presence and their mention to copy', async () => {
    await page.getByRole('searchbox', { name: 'Filter users' }).fill('han');
    await expect.poll(() => users().getByRole('listitem').allTextContents()).toEqual(['Hannah Kim']);
    await userRow('Hannah Kim').locator('.user-row').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('You and Hannah Kim');
    // Addressed and focused: what is typed next is the message.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), { timeout: WAIT_MS }).toBe('Message');
    await goTo(page, '#narrow/channel/2-general');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('#general');
    await userRow('Hannah Kim').getByRole('button', { name: 'Card of Hannah Kim' }).click();
    const card = page.getByRole('dialog', { name: 'Hannah Kim' });
    await expect(card.textContent()).resolves.toContain('PresenceActive');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await card.getByRole('button', { name: 'Copy mention syntax' }).click();
    await page.getByText('Mention syntax copied.').waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe('@**Hannah Kim**');
    await card.getByRole('button', { name: 'Send direct message' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('You and Hannah Kim');
  });

  test('turned off in Settings, my presence is no longer shared with others', async () => {
    const shared = async () => Object.keys((await api(page, MARCUS, 'GET', '/realm/presence')).presences as object).includes('olivia@lakeside.test');
    expect(await shared()).toBe(true);
    await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    const setting = page.getByRole('checkbox', { name: 'Let others see when I am online' });
    await expect(setting.isChecked()).resolves.toBe(true);
    await setting.uncheck();
    await expect.poll(shared, { timeout: WAIT_MS }).toBe(false);
    await expect(setting.isChecked()).resolves.toBe(false);
  });

  test('Set status saves a suggested status on the server; others’ statuses show as they change; Clear status clears mine', async () => {
    await page.getByRole('button', { name: 'Close panel' }).click();
    await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
    await page.getByRole('menuitem', { name: 'Set status' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set status' });
    await dialog.getByRole('button', { name: /Working remotely/ }).click();
    await expect(dialog.getByRole('textbox', { name: 'Status' }).inputValue()).resolves.toBe('Working remotely');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const mine = async () => (await api(page, HANNAH, 'GET', '/users/8/status')).status as Record<string, unknown>;
    // (`away` says presence is not shared: the test before turned it off.)
    await expect.poll(mine, { timeout: WAIT_MS }).toEqual({ away: true, status_text: 'Working remotely', emoji_name: 'house', emoji_code: '1f3e0', reaction_type: 'unicode_emoji' });

    await page.getByRole('button', { name: 'Users' }).click();
    await page.getByRole('searchbox', { name: 'Filter users' }).fill('');
    await expect.poll(() => userRow('Olivia Park').locator('.user-status-text').textContent()).toBe('Working remotely');
    expect(await api(page, HANNAH, 'POST', '/users/me/status', { status_text: 'Reviewing designs' })).toMatchObject({ result: 'success' });
    await expect.poll(() => userRow('Hannah Kim').locator('.user-status-text').textContent()).toBe('Reviewing designs');

    await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
    await page.getByRole('menuitem', { name: 'Set status' }).click();
    await dialog.getByRole('button', { name: 'Clear status' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(mine, { timeout: WAIT_MS }).toEqual({ away: true });
    await expect.poll(() => userRow('Olivia Park').locator('.user-status').count()).toBe(0);
  });
});
