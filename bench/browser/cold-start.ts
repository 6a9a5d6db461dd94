// The app (index.html of the app's own build) from navigation start to `data-server="ready"`:
// on a fresh profile (first visit: Service Worker install, precache, demo scenario load) and on
// reloads of the same tab.
import type { BrowserContext, Page } from 'playwright';
import { freshProfile } from './chromium.ts';

const COLD_SAMPLES = 5;
const WARM_SAMPLES = 10;
const READY_TIMEOUT_MS = 60_000;

export interface ColdStart {
  cold: number[];
  /** When the first visit's page came under the Service Worker (installed, precached, claimed). */
  coldControlled: number[];
  warm: number[];
}

interface Marks {
  benchReadyAt?: number;
  benchControlledAt?: number;
}

export async function measureColdStart(origin: string): Promise<ColdStart> {
  const cold: number[] = [];
  const coldControlled: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < COLD_SAMPLES; i++) {
    const profile = await freshProfile();
    try {
      const page = await readyTimedPage(profile.context);
      await page.goto(`${origin}/`);
      cold.push(await readyAt(page));
      coldControlled.push(await page.evaluate(() => (window as unknown as Marks).benchControlledAt ?? Number.NaN));
      if (i > 0) continue;
      for (let k = 0; k < WARM_SAMPLES; k++) {
        await page.reload();
        warm.push(await readyAt(page));
      }
    } finally {
      await profile.close();
    }
  }
  return { cold, coldControlled, warm };
}

/** A page that notes `performance.now()` (ms since its navigation started) when it is controlled and ready. */
async function readyTimedPage(context: BrowserContext): Promise<Page> {
  await context.addInitScript(() => {
    const marks = window as unknown as Marks;
    navigator.serviceWorker.addEventListener('controllerchange', () => (marks.benchControlledAt ??= performance.now()));
    // The document is still empty here: watch it all for the attribute change.
    new MutationObserver(() => {
      if (document.documentElement.dataset.server === 'ready') marks.benchReadyAt ??= performance.now();
    }).observe(document, { attributes: true, attributeFilter: ['data-server'], subtree: true });
  });
  return context.pages()[0] ?? context.newPage();
}

async function readyAt(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    () => {
      const root = document.documentElement;
      if (root.dataset.server === 'failed') throw new Error(`the in-browser server failed to start: ${document.body.innerText}`);
      return (window as unknown as Marks).benchReadyAt;
    },
    undefined,
    { timeout: READY_TIMEOUT_MS },
  );
  return (await handle.jsonValue()) as number;
}
