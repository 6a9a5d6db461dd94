import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright';
import { build, preview } from 'vite';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium-flags.ts';

/**
 * `npm run screenshots`: builds the app, serves it, and writes the main screens at desktop and
 * phone sizes, light and dark, into screenshots/ (ignored by git). Pass names to take only
 * some: `npm run screenshots -- topic`.
 */
const OUT = 'screenshots';
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];
const THEMES = ['light', 'dark'] as const;

interface Screen {
  name: string;
  /** Logs in as this demo account first (by its button); none: the login screen. */
  as?: string;
  hash?: string;
  /** Extra steps once the view is ready. */
  then?: (page: Page) => Promise<void>;
}

const SCREENS: Screen[] = [
  { name: 'login' },
  { name: 'feed', as: 'Olivia Park' },
  { name: 'topic', as: 'Hannah Kim', hash: '#narrow/channel/5-engineering/topic/Dark.20mode.20implementation' },
  { name: 'dm', as: 'Olivia Park', hash: '#narrow/dm/9-Marcus-Reed' },
  {
    name: 'drawer',
    as: 'Olivia Park',
    hash: '#narrow/channel/5-engineering',
    then: async (page) => {
      const toggle = page.getByRole('button', { name: 'Channels and conversations' });
      if (await toggle.isVisible()) await toggle.click();
    },
  },
  {
    // The mention typeahead, reached from the keyboard.
    name: 'mention',
    as: 'Olivia Park',
    hash: '#narrow/channel/5-engineering/topic/Dark.20mode.20implementation',
    then: async (page) => {
      await page.getByRole('textbox', { name: 'Message', exact: true }).focus();
      await page.keyboard.type('Thanks @han');
      await page.getByRole('option', { name: /^Hannah Kim/ }).waitFor();
    },
  },
  {
    // The snippet menu, opened from the keyboard, naming the message so far as a snippet.
    name: 'snippets',
    as: 'Olivia Park',
    hash: '#narrow/channel/5-engineering/topic/Dark.20mode.20implementation',
    then: async (page) => {
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('On my way!');
      await page.getByRole('button', { name: 'Snippets', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Save as snippet' }).waitFor();
      await page.keyboard.press('Enter');
      await page.keyboard.type('Omw');
    },
  },
  {
    name: 'api-log',
    as: 'Olivia Park',
    then: async (page) => {
      await page.getByRole('button', { name: /Menu for/ }).click();
      await page.getByRole('menuitem', { name: 'API log' }).click();
    },
  },
];

async function waitApp(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.app === 'ready', undefined, { timeout: 30_000 });
}

async function main(): Promise<void> {
  const only = new Set(process.argv.slice(2));
  const outDir = await mkdtemp(join(tmpdir(), 'offline-realm-shots-'));
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({ configFile: false, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0 } });
  const origin = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  await mkdir(OUT, { recursive: true });
  try {
    for (const viewport of VIEWPORTS) {
      for (const theme of THEMES) {
        const context = await browser.newContext({ viewport, colorScheme: theme, deviceScaleFactor: 1 });
        for (const screen of SCREENS) {
          if (only.size > 0 && !only.has(screen.name)) continue;
          const page = await context.newPage();
          await page.goto(`${origin}/`);
          await waitApp(page);
          const logout = page.getByRole('button', { name: 'Log out' });
          if (await logout.isVisible()) {
            await logout.click();
            await waitApp(page);
          }
          if (screen.as) {
            await page.getByRole('button', { name: `Log in as ${screen.as}` }).click();
            await page.getByRole('button', { name: 'Log out' }).waitFor();
            await waitApp(page);
          }
          if (screen.hash) {
            await page.evaluate((hash) => (location.hash = hash), screen.hash);
            await page.locator('[data-message-id]').first().waitFor();
          }
          await screen.then?.(page);
          await page.waitForTimeout(300);
          // Avatars load once their row is painted: picture them loaded.
          await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('img.avatar')].every((image) => image.complete && image.naturalWidth > 0));
          const file = join(OUT, `${screen.name}-${viewport.name}-${theme}.png`);
          await page.screenshot({ path: file });
          console.log(file);
          await page.close();
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
    await rm(outDir, { recursive: true, force: true });
  }
}

await main();
