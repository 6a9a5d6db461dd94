import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, launchBrowser, logInAs, MARCUS, newProfile, WAIT_MS, waitAppReady, origin } from './chat-browser.ts';

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  const profile = await newProfile(browser);
  // The browser's Notification, granted, recording what the app shows (headless Chromium shows none).
  await profile.addInitScript(() => {
    const shown: { title: string; body?: string }[] = [];
    class RecordedNotification {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string, options?: { body?: string }) {
        shown.push({ title, body: options?.body });
        (window as unknown as { lastNotification: RecordedNotification }).lastNotification = this;
      }
      close(): void {}
    }
    Object.assign(window, { Notification: RecordedNotification, shownNotifications: shown });
  });
  page = await profile.newPage();
  await page.goto(`${origin()}/#narrow/channel/3-random`);
  await waitAppReady(page);
  await logInAs(page, 'Olivia Park');
});
afterAll(async () => {
  await browser.close();
});

const shown = () => page.evaluate(() => (window as unknown as { shownNotifications: { title: string; body?: string }[] }).shownNotifications.slice());

async function marcusSends(params: Record<string, unknown>): Promise<number> {
  const answer = await api(page, MARCUS, 'POST', '/messages', params);
  expect(answer.result).toBe('success');
  return answer.id as number;
}

describe('desktop notifications', () => {
  test('a DM notifies with its sender and text; a click opens the conversation at it', async () => {
    const id = await marcusSends({ type: 'direct', to: JSON.stringify([8]), content: 'Are you around for a quick call?' });
    await expect.poll(shown, { timeout: WAIT_MS }).toEqual([{ title: 'Marcus Reed', body: 'Are you around for a quick call?' }]);
    await page.evaluate(() => (window as unknown as { lastNotification: { onclick(): void } }).lastNotification.onclick());
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#narrow/dm/9-Marcus-Reed/near/${id}`);
  });

  test('a mention in a channel notifies, named with its conversation; a plain channel message does not', async () => {
    await marcusSends({ type: 'channel', to: 'general', topic: 'lunch plans', content: 'tacos again?' });
    await marcusSends({ type: 'channel', to: 'general', topic: 'lunch plans', content: '@**Olivia Park** are you in?' });
    await expect.poll(async () => (await shown()).length, { timeout: WAIT_MS }).toBe(2);
    expect((await shown())[1]).toEqual({ title: 'Marcus Reed (#general › lunch plans)', body: '@Olivia Park are you in?' });
  });
});
