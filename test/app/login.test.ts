import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, logInAs, logOut, newProfile, openChat, waitAppReady } from './chat-browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('logging in to the chat', () => {
  let profile: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    profile = await newProfile(browser);
    page = await openChat(profile);
  });
  afterAll(async () => {
    await profile.close();
  });

  test('a first visit shows the login form and one button per demo account with a password', async () => {
    await expect(page.getByLabel('Email').isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Password').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Log in', exact: true }).isVisible()).resolves.toBe(true);
    const demo = await page.getByRole('button', { name: /^Log in as / }).allTextContents();
    // 14 people in the demo realm; the two bots have no password.
    expect(demo).toHaveLength(12);
    expect(demo[0]).toContain('Olivia Park');
  });

  test('a wrong password is refused with the server’s message, and nobody is logged in', async () => {
    await page.getByLabel('Email').fill('olivia@lakeside.test');
    await page.getByLabel('Password').fill('not-her-password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();

    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/password/i);
    expect(await page.getByRole('button', { name: 'Log out' }).count()).toBe(0);
  });

  test('the form logs in with email and password; the login survives a reload', async () => {
    await page.getByLabel('Email').fill('olivia@lakeside.test');
    await page.getByLabel('Password').fill('olivia-pass');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await waitAppReady(page);
    await expect(page.getByRole('button', { name: 'Menu for Olivia Park' }).isVisible()).resolves.toBe(true);

    await page.reload();
    await waitAppReady(page);
    await expect(page.getByRole('button', { name: 'Menu for Olivia Park' }).isVisible()).resolves.toBe(true);
  });

  test('Log out returns to the login form, and a reload keeps it logged out', async () => {
    await logOut(page);
    await page.reload();
    await waitAppReady(page);
    await expect(page.getByLabel('Email').isVisible()).resolves.toBe(true);
    expect(await page.getByRole('button', { name: 'Log out' }).count()).toBe(0);
  });
});

describe('two tabs of one browser', () => {
  test('are two people side by side; a new tab opens as whoever logged in last', async () => {
    const profile = await newProfile(browser);
    const first = await openChat(profile);
    await logInAs(first, 'Olivia Park');
    const second = await openChat(profile);
    // A new tab opens logged in as the last login of this browser...
    await second.getByRole('button', { name: 'Menu for Olivia Park' }).waitFor();
    // ...and may become someone else without changing the first tab.
    await logOut(second);
    await logInAs(second, 'Marcus Reed');
    await first.reload();
    await waitAppReady(first);
    await second.reload();
    await waitAppReady(second);

    await expect(first.getByRole('button', { name: 'Menu for Olivia Park' }).isVisible()).resolves.toBe(true);
    await expect(second.getByRole('button', { name: 'Menu for Marcus Reed' }).isVisible()).resolves.toBe(true);
    const third = await openChat(profile);
    await expect(third.getByRole('button', { name: 'Menu for Marcus Reed' }).isVisible()).resolves.toBe(true);
    await profile.close();
  });
});
