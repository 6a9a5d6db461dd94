import type { Browser, Page } from 'playwright';
import type { Engine } from '../../src/engine/engine.ts';
import { newProfile, waitAppReady } from './chat-browser.ts';

/** A trainee of the training-room tests: their own browser profile, logged in on the hub. */
export interface HubUser {
  email: string;
  password: string;
}

/** Opens `url` (a `/?sync=` link) in a fresh profile, once the app is ready. */
export async function openInNewProfile(browser: Browser, url: string): Promise<Page> {
  const page = await (await newProfile(browser)).newPage();
  await page.goto(url);
  await waitAppReady(page);
  return page;
}

/** Logs in with the hub's credentials, as a trainee does, and waits until the replica is in sync. */
export async function logInOnHub(page: Page, user: HubUser): Promise<void> {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
  await waitAppReady(page);
  await waitForSync(page, 'online');
}

export const waitForSync = (page: Page, word: string) => page.waitForFunction((expected) => document.documentElement.dataset.sync === expected, word);

/** The hub's id of the message with this (raw) content, if the hub has it. */
export async function hubIdOf(hub: Engine, content: string): Promise<number | undefined> {
  return (await hub.db.messages.toArray()).find((message) => message.content === content)?.id;
}

/** The ids of the messages showing `text` in a trainee's page. */
export function shownIds(page: Page, text: string): Promise<number[]> {
  return page.locator('[data-message-id]', { hasText: text }).evaluateAll((elements) => elements.map((element) => Number((element as HTMLElement).dataset.messageId)));
}
