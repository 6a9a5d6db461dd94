import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright';
import { inject } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium-flags.ts';

/**
 * Drives the chat app as a person would, in Debian's Chromium through Playwright: by labels,
 * roles and the runtime contract's attributes (`data-app`, `data-message-id`). Each context is
 * a fresh browser profile; its tabs share one in-browser server.
 */

/** Generous: CI's machine may be busy, and every wait here ends as soon as its condition holds. */
export const WAIT_MS = 20_000;

export const origin = (): string => inject('appOrigin');

/** `extraArgs` add to the usual flags, e.g. a host resolver rule. */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

export async function newProfile(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(WAIT_MS);
  return context;
}

export async function waitAppReady(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.app === 'ready', undefined, { timeout: WAIT_MS });
}

/** Opens a tab of the app at `path` (e.g. `/#narrow/...`) and waits for `data-app="ready"`. */
export async function openChat(context: BrowserContext, path = '/'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${origin()}${path}`);
  await waitAppReady(page);
  return page;
}

/**
 * One click on the demo account's button; resolves once the chat is ready for that person.
 * A tab already logged in (a new tab opens as the browser's last login) logs out first,
 * unless it is already that person.
 */
export async function logInAs(page: Page, fullName: string): Promise<void> {
  const logout = page.getByRole('button', { name: 'Log out' });
  if (await logout.isVisible()) {
    if (await page.getByRole('button', { name: `Menu for ${fullName}` }).isVisible()) return;
    await logOut(page);
  }
  await page.getByRole('button', { name: `Log in as ${fullName}` }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
  await waitAppReady(page);
  await page.getByRole('button', { name: `Menu for ${fullName}` }).waitFor();
}

export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
}

export async function goTo(page: Page, hash: string): Promise<void> {
  await page.evaluate((target) => (location.hash = target), hash);
}

export function messageElement(page: Page, id: number): Locator {
  return page.locator(`[data-message-id="${id}"]`);
}

/**
 * A message's action button, as a person reaches it: select the message (a click in its
 * margin, as a tap on a phone), which shows its actions, then the button by its name.
 */
export async function messageAction(page: Page, id: number, name: string): Promise<void> {
  await page.bringToFront();
  const message = messageElement(page, id);
  await message.click({ position: { x: 4, y: 4 } });
  await message.getByRole('button', { name, exact: true }).click();
}

/** The ids of the messages drawn, in order. */
export async function shownMessageIds(page: Page): Promise<number[]> {
  return page.locator('[data-message-id]').evaluateAll((elements) => elements.map((element) => Number((element as HTMLElement).dataset.messageId)));
}

/** The first drawn message whose text contains `text`. */
export function messageWithText(page: Page, text: string): Locator {
  return page.locator('[data-message-id]', { hasText: text }).first();
}

/**
 * Helpers that act on a tab bring it to the front first, as a person would: Chromium gives a
 * background tab animation frames (which Playwright's actions wait on) only now and then.
 */

/** Types into the compose box and sends with the Send button; resolves once the box is empty again. */
export async function send(page: Page, text: string): Promise<void> {
  await page.bringToFront();
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await box.fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.waitForFunction(() => (document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement | null)?.value === '', undefined, {
    timeout: WAIT_MS,
  });
}

/** An API call from the page with a user's Basic auth, as any page of the site may make it. */
export async function api(page: Page, auth: string, method: string, path: string, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
  return page.evaluate(
    async ({ auth, method, path, params }) => {
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
      const hasBody = method !== 'GET';
      const response = await fetch(`/api/v1${path}${hasBody ? '' : `?${form}`}`, {
        method,
        headers: { Authorization: `Basic ${btoa(auth)}` },
        body: hasBody ? form : undefined,
      });
      return response.json();
    },
    { auth, method, path, params },
  );
}

/** A topic's newest messages as `auth` reads them through the API, oldest of them first. */
export async function newestInTopic(page: Page, auth: string, channel: string, topic: string, count: number): Promise<{ content: string; subject: string; flags: string[] }[]> {
  const answer = await api(page, auth, 'GET', '/messages', {
    anchor: 'newest',
    num_before: count,
    num_after: 0,
    narrow: [
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: topic },
    ],
  });
  return answer.messages;
}

export const OLIVIA = 'olivia@lakeside.test:pbGan8CP9oJG8HYYILCxegSkvA8TGKc7';
export const MARCUS = 'marcus@lakeside.test:31ixqtQ5Vvb44cLyEWHkWV1NXtrMWCJ4';
export const HANNAH = 'hannah@lakeside.test:jcSiR4rna0FrGZHitMQUwGPA6nlZSMyX';

/** The drafts a tab's browser keeps (idb-keyval's store), by key: `chat:draft:<server>:<email>:topic:<channel id>:<topic>` or `...:dm:<ids>`. */
export function storedDrafts(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((db) => db.name === 'keyval-store')) return {};
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('keyval-store');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      if (!db.objectStoreNames.contains('keyval')) return {};
      const store = db.transaction('keyval').objectStore('keyval');
      const read = <T,>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const [keys, values] = await Promise.all([read(store.getAllKeys()), read(store.getAll())]);
      return Object.fromEntries(keys.flatMap((key, i) => (typeof key === 'string' && key.startsWith('chat:draft:') && typeof values[i] === 'string' ? [[key, values[i]]] : [])));
    } finally {
      db.close();
    }
  });
}
