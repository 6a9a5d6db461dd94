import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page, type Request } from 'playwright';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium-flags.ts';
import type { BrowserCommand, BrowserCommandContext } from 'vitest/node';

/**
 * Browser commands (run in Node, called from the tests in the browser) that drive whole tabs
 * of the built app through Playwright. Each "profile" is a fresh browser context: its own
 * IndexedDB, Service Worker registration and SharedWorker, as a new visitor would have.
 */

declare module 'vitest/browser' {
  interface BrowserCommands {
    openProfile: () => Promise<string>;
    /** A profile whose pages have no `SharedWorker`, as in Chrome on Android. */
    openProfileWithoutSharedWorker: () => Promise<string>;
    /**
     * A profile kept on disk in its own Chromium, as a real browser keeps it: closing the
     * profile quits that browser, and opening the same `userDataDir` again restarts it.
     * Without a directory, a new one is made. Returns the profile and its directory.
     */
    openDiskProfile: (userDataDir?: string) => Promise<{ profile: string; userDataDir: string }>;
    closeProfile: (profile: string) => Promise<void>;
    /** Opens `url` in a new tab of `profile` and waits for `data-server="ready"`. */
    openTab: (profile: string, url: string) => Promise<string>;
    /** Opens `url` without waiting for anything. */
    startTab: (profile: string, url: string) => Promise<string>;
    closeTab: (tab: string) => Promise<void>;
    reloadTab: (tab: string) => Promise<void>;
    /** Reloads bypassing the cache (Shift+Reload): the new page starts without a controller. */
    hardReloadTab: (tab: string) => Promise<void>;
    /** Runs `(source)(arg)` in the tab and returns its (JSON-able) result. */
    runInTab: (tab: string, source: string, arg: unknown) => Promise<unknown>;
    /** Stops every Service Worker of the tab's profile (DevTools protocol), as the browser may at any time. */
    stopServiceWorkers: (tab: string) => Promise<void>;
    /**
     * Stops every Service Worker of the tab's profile as soon as the tab issues a request for
     * `path`: that request is then in flight at the Service Worker. Resolves once armed;
     * `serviceWorkersStoppedOnRequest` resolves once the stop is done.
     */
    stopServiceWorkersOnRequest: (tab: string, path: string) => Promise<void>;
    serviceWorkersStoppedOnRequest: (tab: string) => Promise<void>;
    /** How many fetches of `path` the profile's engine SharedWorker has received the whole answer to. */
    engineWorkerFetches: (profile: string, path: string) => Promise<number>;
    /**
     * Ends the profile's SharedWorkers (DevTools protocol), as the browser does a while after
     * their last tab closed (the engine's worker outlives its tabs for a moment).
     */
    endSharedWorkers: (profile: string) => Promise<void>;
    /** Cuts (or restores) the network of every tab and worker of the profile. */
    setOffline: (profile: string, offline: boolean) => Promise<void>;
    /** From now on, answers every `confirm()` of the tab with OK (Playwright would dismiss it). */
    acceptDialogs: (tab: string) => Promise<void>;
    /** Clicks the element as a user would. */
    clickInTab: (tab: string, selector: string) => Promise<void>;
    /** Picks the option with `value` in a `<select>`, as a user would. */
    selectInTab: (tab: string, selector: string, value: string) => Promise<void>;
    /** Clicks the element and returns the file it downloads. */
    downloadFromTab: (tab: string, selector: string) => Promise<{ name: string; text: string }>;
    /** Chooses a file with this name and text in an `<input type="file">`. */
    uploadToTab: (tab: string, selector: string, file: { name: string; text: string }) => Promise<void>;
  }
}

const READY_TIMEOUT_MS = 20_000;
/** By tab: the stop `stopServiceWorkersOnRequest` armed. */
const armedStops = new Map<string, Promise<void>>();
const profiles = new Map<string, BrowserContext>();
const tabs = new Map<string, Page>();
/** Each profile's id in the DevTools protocol, learnt from its first tab. */
const browserContextIds = new Map<string, string>();
let nextId = 1;

function playwrightContext(ctx: BrowserCommandContext): BrowserContext {
  return (ctx as unknown as { context: BrowserContext }).context;
}

function tab(id: string): Page {
  const page = tabs.get(id);
  if (!page) throw new Error(`no tab ${id}`);
  return page;
}

async function newTab(profile: string, url: string): Promise<{ id: string; page: Page }> {
  const context = profiles.get(profile);
  if (!context) throw new Error(`no profile ${profile}`);
  const page = await context.newPage();
  if (!browserContextIds.has(profile)) {
    const cdp = await context.newCDPSession(page);
    const { targetInfo } = await cdp.send('Target.getTargetInfo');
    browserContextIds.set(profile, targetInfo.browserContextId ?? '');
    await cdp.detach();
  }
  const id = `tab-${nextId++}`;
  tabs.set(id, page);
  page.on('close', () => tabs.delete(id));
  await page.goto(url);
  return { id, page };
}

function waitReady(page: Page): Promise<unknown> {
  return page.waitForFunction(
    () => {
      const state = document.documentElement.dataset.server;
      if (state === 'failed') throw new Error(`the in-browser server failed to start: ${document.body.innerText}`);
      return state === 'ready';
    },
    undefined,
    { timeout: READY_TIMEOUT_MS },
  );
}

export const tabCommands: Record<string, BrowserCommand<any[]>> = {
  openProfile: async (ctx) => {
    const browser = playwrightContext(ctx).browser();
    if (!browser) throw new Error('the provider gave no browser');
    const id = `profile-${nextId++}`;
    profiles.set(id, await browser.newContext());
    return id;
  },
  openProfileWithoutSharedWorker: async (ctx) => {
    const browser = playwrightContext(ctx).browser();
    if (!browser) throw new Error('the provider gave no browser');
    const id = `profile-${nextId++}`;
    const context = await browser.newContext();
    // Runs in every page before the app's scripts (not in workers, which never use SharedWorker).
    await context.addInitScript(() => {
      delete (globalThis as { SharedWorker?: unknown }).SharedWorker;
    });
    profiles.set(id, context);
    return id;
  },
  openDiskProfile: async (_ctx, userDataDir?: string) => {
    const dir = userDataDir ?? (await mkdtemp(join(tmpdir(), 'offline-realm-profile-')));
    const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    const id = `profile-${nextId++}`;
    profiles.set(id, context);
    return { profile: id, userDataDir: dir };
  },
  closeProfile: async (_ctx, profile: string) => {
    await profiles.get(profile)?.close();
    profiles.delete(profile);
  },
  openTab: async (_ctx, profile: string, url: string) => {
    const { id, page } = await newTab(profile, url);
    await waitReady(page);
    return id;
  },
  startTab: async (_ctx, profile: string, url: string) => (await newTab(profile, url)).id,
  closeTab: async (_ctx, id: string) => {
    await tab(id).close();
  },
  reloadTab: async (_ctx, id: string) => {
    const page = tab(id);
    await page.reload();
    await waitReady(page);
  },
  hardReloadTab: async (_ctx, id: string) => {
    const page = tab(id);
    const cdp = await page.context().newCDPSession(page);
    const loaded = page.waitForEvent('load');
    await cdp.send('Page.reload', { ignoreCache: true });
    await loaded;
    await cdp.detach();
    await waitReady(page);
  },
  runInTab: async (_ctx, id: string, source: string, arg: unknown) =>
    tab(id).evaluate(`(${source})(${JSON.stringify(arg)})`),
  stopServiceWorkers: async (_ctx, id: string) => {
    const page = tab(id);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await cdp.detach();
  },
  stopServiceWorkersOnRequest: async (_ctx, id: string, path: string) => {
    const page = tab(id);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    const stopped = new Promise<void>((resolve, reject) => {
      const onRequest = (request: Request) => {
        if (new URL(request.url()).pathname !== path) return;
        page.off('request', onRequest);
        cdp
          .send('ServiceWorker.stopAllWorkers')
          .then(() => cdp.detach())
          .then(resolve, reject);
      };
      page.on('request', onRequest);
    });
    // Awaited by `serviceWorkersStoppedOnRequest`; a failure meanwhile must not go unhandled.
    stopped.catch(() => {});
    armedStops.set(id, stopped);
  },
  serviceWorkersStoppedOnRequest: async (_ctx, id: string) => {
    const stopped = armedStops.get(id);
    if (!stopped) throw new Error(`no stop armed for ${id}`);
    armedStops.delete(id);
    await stopped;
  },
  engineWorkerFetches: async (_ctx, profile: string, path: string) => {
    const expression = `performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname === ${JSON.stringify(path)}).length`;
    return (await evaluateInSharedWorker(profile, expression)) as number;
  },
  endSharedWorkers: async (_ctx, profile: string) => {
    const browser = profiles.get(profile)?.browser();
    const contextId = browserContextIds.get(profile);
    if (!browser || !contextId) throw new Error(`no profile ${profile} with a tab opened`);
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    for (const target of targetInfos) {
      if (target.type === 'shared_worker' && target.browserContextId === contextId) await cdp.send('Target.closeTarget', { targetId: target.targetId });
    }
    await cdp.detach();
  },
  setOffline: async (_ctx, profile: string, offline: boolean) => {
    const context = profiles.get(profile);
    if (!context) throw new Error(`no profile ${profile}`);
    await context.setOffline(offline);
  },
  acceptDialogs: async (_ctx, id: string) => {
    tab(id).on('dialog', (dialog) => void dialog.accept());
  },
  clickInTab: async (_ctx, id: string, selector: string) => {
    await tab(id).click(selector);
  },
  selectInTab: async (_ctx, id: string, selector: string, value: string) => {
    await tab(id).selectOption(selector, value);
  },
  downloadFromTab: async (_ctx, id: string, selector: string) => {
    const page = tab(id);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    return { name: download.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
  },
  uploadToTab: async (_ctx, id: string, selector: string, file: { name: string; text: string }) => {
    await tab(id).setInputFiles(selector, { name: file.name, mimeType: 'application/json', buffer: Buffer.from(file.text) });
  },
};

/**
 * Evaluates `expression` in the profile's one SharedWorker (Playwright reaches no SharedWorker,
 * so through the DevTools protocol's target messages) and returns its JSON-able value.
 */
async function evaluateInSharedWorker(profile: string, expression: string): Promise<unknown> {
  const browser = profiles.get(profile)?.browser();
  const contextId = browserContextIds.get(profile);
  if (!browser || !contextId) throw new Error(`no profile ${profile} with a tab opened`);
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const worker = targetInfos.find((target) => target.type === 'shared_worker' && target.browserContextId === contextId);
    if (!worker) throw new Error(`no SharedWorker in ${profile}`);
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false });
    const answered = new Promise<unknown>((resolve, reject) => {
      cdp.on('Target.receivedMessageFromTarget', (event) => {
        if (event.sessionId !== sessionId) return;
        const message = JSON.parse(event.message) as { id?: number; result?: { result: { value: unknown } }; error?: { message: string } };
        if (message.id !== 1) return;
        if (message.error) reject(new Error(message.error.message));
        else resolve(message.result?.result.value);
      });
    });
    const evaluate = { id: 1, method: 'Runtime.evaluate', params: { expression, returnByValue: true } };
    await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify(evaluate) });
    const value = await answered;
    await cdp.send('Target.detachFromTarget', { sessionId });
    return value;
  } finally {
    await cdp.detach();
  }
}
