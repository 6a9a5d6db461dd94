// The chat app's own figures (issue: first visit, reload, narrow switch), each beside a bare
// figure from the same run, and the built files' gzip sizes.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright';
import { freshProfile } from './chromium.ts';

const FIRST_VISITS = 5;
const RELOADS = 10;
const SWITCHES = 10;
const TIMEOUT_MS = 60_000;
/** Two topics with history in the demo realm, as Olivia sees them. */
const NARROWS = ['#narrow/channel/5-engineering/topic/Release.202.2E4', '#narrow/channel/2-general/topic/Launch.20party'];

export interface ChatAppFigures {
  /** Navigation start -> login form ready (`data-app="ready"`), fresh profile. */
  firstVisitLogin: number[];
  /** "Log in as" click -> the first message list drawn and the queue registered. */
  loginToList: number[];
  /** Reload, logged in -> `data-app="ready"` (the message list drawn again). */
  reload: number[];
  /** The same reload of a static file of the origin: the page load with no app. */
  bareReload: number[];
  /** Hash change -> the other topic's messages drawn, first visit of each narrow. */
  switchFresh: number[];
  /** The same, back to a narrow shown before (its list is cached). */
  switchCached: number[];
  /** `GET /messages` for the narrow alone, from the page: the API call under the switch. */
  apiAlone: number[];
  bundles: { file: string; bytes: number; gzip: number }[];
}

interface Marks {
  benchAppReadyAt?: number;
}

export async function measureChatApp(origin: string, outDir: string): Promise<ChatAppFigures> {
  const figures: ChatAppFigures = {
    firstVisitLogin: [],
    loginToList: [],
    reload: [],
    bareReload: [],
    switchFresh: [],
    switchCached: [],
    apiAlone: [],
    bundles: await bundleSizes(outDir),
  };
  for (let visit = 0; visit < FIRST_VISITS; visit++) {
    const profile = await freshProfile();
    try {
      const page = await markedPage(profile.context);
      await page.goto(`${origin}/`);
      figures.firstVisitLogin.push(await appReadyAt(page));
      figures.loginToList.push(await logInTimed(page));
      if (visit > 0) continue;
      for (let i = 0; i < RELOADS; i++) {
        await page.reload();
        figures.reload.push(await appReadyAt(page));
      }
      for (let i = 0; i < SWITCHES; i++) {
        const target = NARROWS[i % 2];
        // A person switches once the page has settled (older messages, avatars, read flags).
        await settled(page);
        (i < 2 ? figures.switchFresh : figures.switchCached).push(await switchTimed(page, target));
        figures.apiAlone.push(await apiTimed(page, target));
      }
      await page.goto(`${origin}/favicon.svg`);
      for (let i = 0; i < RELOADS; i++) figures.bareReload.push(await loadTimed(page));
    } finally {
      await profile.close();
    }
  }
  return figures;
}

/** A page that notes when `data-app` becomes "ready" (ms since its navigation started). */
async function markedPage(context: BrowserContext): Promise<Page> {
  await context.addInitScript(() => {
    const marks = window as unknown as Marks;
    new MutationObserver(() => {
      if (document.documentElement.dataset.app === 'ready') marks.benchAppReadyAt ??= performance.now();
    }).observe(document, { attributes: true, attributeFilter: ['data-app'], subtree: true });
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(TIMEOUT_MS);
  return page;
}

async function appReadyAt(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => (window as unknown as Marks).benchAppReadyAt, undefined, { timeout: TIMEOUT_MS });
  return (await handle.jsonValue()) as number;
}

/** Click -> `data-app="ready"` again with messages on screen, timed inside the page. */
async function logInTimed(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const root = document.documentElement;
    const button = [...document.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === 'Log in as Olivia Park');
    if (!button) throw new Error('no demo login button');
    const started = performance.now();
    button.click();
    // The app marks itself "starting" while it logs in, "ready" once the first list is drawn.
    await new Promise<void>((resolve) => {
      const check = () => (root.dataset.app === 'ready' && document.querySelector('[data-message-id]') ? resolve() : requestAnimationFrame(check));
      requestAnimationFrame(check);
    });
    return performance.now() - started;
  });
}

/** Resolves once the page's main thread has had a whole idle period (50 ms) to itself. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const check = (deadline: IdleDeadline) => (deadline.timeRemaining() >= 49 ? resolve() : requestIdleCallback(check));
        requestIdleCallback(check);
      }),
  );
}

/** Hash change -> the narrow's title and a message of it on screen. */
async function switchTimed(page: Page, hash: string): Promise<number> {
  return page.evaluate(async (target) => {
    const before = new Set([...document.querySelectorAll('[data-message-id]')].map((e) => e.getAttribute('data-message-id')));
    const started = performance.now();
    location.hash = target;
    await new Promise<void>((resolve) => {
      const check = () => {
        const shown = [...document.querySelectorAll('[data-message-id]')].map((e) => e.getAttribute('data-message-id'));
        if (shown.length > 0 && shown.some((id) => !before.has(id))) resolve();
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
    return performance.now() - started;
  }, hash);
}

/** The switch's own API call, alone: `GET /messages` around the first unread of the topic. */
async function apiTimed(page: Page, hash: string): Promise<number> {
  return page.evaluate(async (target) => {
    const [, , channel, , topic] = target.split('/');
    const narrow = [
      { operator: 'channel', operand: Number.parseInt(channel, 10) },
      { operator: 'topic', operand: decodeURIComponent(topic.replace(/\./g, '%')) },
    ];
    const query = new URLSearchParams({ anchor: 'first_unread', num_before: '50', num_after: '50', narrow: JSON.stringify(narrow) });
    const started = performance.now();
    const response = await fetch(`/api/v1/messages?${query}`, { headers: { Authorization: `Basic ${btoa('olivia@lakeside.test:pbGan8CP9oJG8HYYILCxegSkvA8TGKc7')}` } });
    await response.json();
    return performance.now() - started;
  }, hash);
}

async function loadTimed(page: Page): Promise<number> {
  await page.reload();
  return page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd);
}

/** Every built script, stylesheet and prebuilt realm, with its gzip size (the Service Worker caches them all). */
async function bundleSizes(outDir: string): Promise<ChatAppFigures['bundles']> {
  const files = [
    ...(await readdir(join(outDir, 'assets'))).map((name) => join('assets', name)),
    ...(await readdir(outDir)).filter((name) => name.endsWith('.js') || name.endsWith('.html')),
    // The realms the build made for a fast first visit (build/prebuilt-realms.ts).
    ...(await readdir(join(outDir, 'scenarios'))).filter((name) => name.endsWith('.realm.json')).map((name) => join('scenarios', name)),
  ].filter((name) => /\.(js|css|html|json)$/.test(name));
  const sizes = await Promise.all(
    files.map(async (file) => {
      const content = await readFile(join(outDir, file));
      return { file: file.replace(/-[\w-]{8}\./, '.'), bytes: content.length, gzip: gzipSync(content).length };
    }),
  );
  return sizes.sort((a, b) => b.gzip - a.gzip);
}
