import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright';
import { build, preview } from 'vite';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium-flags.ts';
import { samplePng } from './sample-png.ts';

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
  { name: 'inbox', as: 'Olivia Park', hash: '#inbox' },
  { name: 'recent', as: 'Olivia Park', hash: '#recent' },
  {
    name: 'users',
    as: 'Olivia Park',
    then: async (page) => {
      await page.getByRole('button', { name: 'Users' }).click();
      await page.getByRole('list', { name: 'Users' }).waitFor();
    },
  },
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
    // A sent image and, in the compose box, the next file on its way (its upload held back).
    name: 'upload',
    as: 'Olivia Park',
    hash: '#narrow/channel/5-engineering/topic/Dark.20mode.20implementation',
    then: async (page) => {
      await sendImage(page, 'The new palette, side by side:', 'palette.png');
      await holdUploads(page);
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('And the contrast check');
      await chooseFile(page, 'contrast-check.png');
      await page.getByText('Uploading contrast-check.png…', { exact: true }).waitFor();
    },
  },
  {
    // A sent image opened in the lightbox.
    name: 'lightbox',
    as: 'Olivia Park',
    hash: '#narrow/channel/5-engineering/topic/Dark.20mode.20implementation',
    then: async (page) => {
      await sendImage(page, 'Mockup for the settings page', 'settings-mockup.png');
      await page.locator('.message_inline_image img').last().click();
      await page.getByRole('dialog', { name: 'settings-mockup.png' }).waitFor();
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

/** Picks a generated PNG in the file chooser of the compose box's Upload files button. */
async function chooseFile(page: Page, name: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload files' }).click();
  await (await chooser).setFiles({ name, mimeType: 'image/png', buffer: samplePng(480, 270) });
}

/** Sends `text` with an uploaded image and waits until the image shows in the message. */
async function sendImage(page: Page, text: string, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
  await chooseFile(page, name);
  await page.waitForFunction(() => /\]\(\/user_uploads\//.test((document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement).value));
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const image = page.locator('[data-message-id]', { hasText: text }).locator('.message_inline_image img');
  await image.waitFor();
  await image.evaluate((element: HTMLImageElement) => element.decode());
}

/** Uploads from now on never finish: the compose box stays as it is while a file is on its way. */
async function holdUploads(page: Page): Promise<void> {
  await page.evaluate(() => {
    const original = window.fetch;
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      return url.includes('/api/v1/user_uploads') ? new Promise<Response>(() => {}) : original(input, init);
    };
  });
}

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
            // The Inbox and Recent conversations list conversations, not messages.
            await page.locator('[data-message-id], .inbox-row, .recent-row, .empty-narrow').first().waitFor();
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
