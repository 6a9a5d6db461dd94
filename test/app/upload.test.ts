import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { samplePng } from '../../scripts/sample-png.ts';
import { goTo, launchBrowser, logInAs, messageWithText, newProfile, openChat, WAIT_MS } from './chat-browser.ts';

/** #general, a topic of this file's own. */
const TOPIC_HASH = '#narrow/channel/2-general/topic/uploads';
const PNG = samplePng(64, 48);

let browser: Browser;
let page: Page;
let compose: Locator;
let box: Locator;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'offline-realm-upload-'));
  browser = await launchBrowser();
  page = await openChat(await newProfile(browser));
  await logInAs(page, 'Olivia Park');
  await goTo(page, TOPIC_HASH);
  compose = page.getByRole('form', { name: 'Compose' });
  box = compose.getByRole('textbox', { name: 'Message', exact: true });
  await page.waitForFunction(() => (document.querySelector('input[aria-label="Topic"]') as HTMLInputElement | null)?.value === 'uploads', undefined, {
    timeout: WAIT_MS,
  });
});
afterAll(async () => {
  await browser.close();
  await rm(scratch, { recursive: true, force: true });
});

async function boxMatches(pattern: RegExp): Promise<string> {
  await page.waitForFunction(
    (source) => new RegExp(source).test((document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement | null)?.value ?? ''),
    pattern.source,
    { timeout: WAIT_MS },
  );
  return box.inputValue();
}

/** Chooses files through the Upload files button, as a person picks them in the file chooser. */
async function chooseFiles(files: Parameters<import('playwright').FileChooser['setFiles']>[0]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await compose.getByRole('button', { name: 'Upload files' }).click();
  await (await chooser).setFiles(files);
}

/**
 * Holds every upload until the returned function is called: a slow network, so the test can
 * look at the compose box while a file is on its way.
 */
async function holdUploads(): Promise<() => Promise<void>> {
  await page.evaluate(() => {
    const original = window.fetch;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    Object.assign(window, {
      releaseUploads: () => {
        window.fetch = original;
        release();
      },
    });
    window.fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('/api/v1/user_uploads')) await released;
      return original(input, init);
    };
  });
  return () => page.evaluate(() => (window as unknown as { releaseUploads(): void }).releaseUploads());
}

/** The sent message's inline image once it has loaded, and the message around it. */
async function sentImage(text: string): Promise<{ message: Locator; image: Locator }> {
  const message = messageWithText(page, text);
  const image = message.locator('.message_inline_image a img');
  await image.waitFor();
  await page.waitForFunction((element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth > 0, await image.elementHandle(), {
    timeout: WAIT_MS,
  });
  return { message, image };
}

describe('uploading files from the compose box', () => {
  test('a PNG chosen with Upload files becomes a link, and the sent message shows the image, which opens in a lightbox', async () => {
    await page.bringToFront();
    await box.fill('Here is the chart');
    await chooseFiles({ name: 'chart.png', mimeType: 'image/png', buffer: PNG });
    const draft = await boxMatches(/^Here is the chart\n\[chart\.png\]\(\/user_uploads\/[^)]+\/chart\.png\)\n$/);
    const url = /\((\/user_uploads\/[^)]+)\)/.exec(draft)?.[1];
    // The preview is the server's rendering: the image shows there before it is sent.
    await compose.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect(compose.getByRole('region', { name: 'Preview' }).locator('.message_inline_image img').getAttribute('src')).resolves.toBe(url);
    await compose.getByRole('button', { name: 'Edit', exact: true }).click();
    await compose.getByRole('button', { name: 'Send', exact: true }).click();
    await boxMatches(/^$/);

    const { message, image } = await sentImage('Here is the chart');
    expect(Number(await message.getAttribute('data-message-id'))).toBeGreaterThan(0);
    await expect(image.getAttribute('src')).resolves.toBe(url);
    await expect(message.locator('.message_inline_image a').getAttribute('title')).resolves.toBe('chart.png');
    // At most the preview box's height, and inside its row: the list measured it in place.
    const imageBox = (await image.boundingBox())!;
    const rowBox = (await message.boundingBox())!;
    expect(imageBox.height).toBeLessThanOrEqual(150);
    expect(imageBox.y + imageBox.height).toBeLessThanOrEqual(rowBox.y + rowBox.height);

    await image.click();
    const lightbox = page.getByRole('dialog', { name: 'chart.png' });
    await lightbox.getByRole('img', { name: 'chart.png' }).waitFor();
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });
  });

  test('a pasted image shows upstream’s placeholder and disables Send until its link replaces it', async () => {
    await page.bringToFront();
    await box.fill('Pasted screenshot');
    const release = await holdUploads();
    await box.evaluate((field, bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }));
      field.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, [...PNG]);

    await boxMatches(/^Pasted screenshot\n\[Uploading image\.png…\]\(\)\n$/);
    const send = compose.getByRole('button', { name: 'Send', exact: true });
    await expect(send.isDisabled()).resolves.toBe(true);
    await compose.getByRole('status').getByText('Uploading image.png…').waitFor();

    await release();
    await boxMatches(/^Pasted screenshot\n\[image\.png\]\(\/user_uploads\/[^)]+\/image\.png\)\n$/);
    await expect(send.isDisabled()).resolves.toBe(false);
    await send.click();
    await boxMatches(/^$/);
    await sentImage('Pasted screenshot');
  });

  test('files dropped on the compose box, or anywhere on the page, upload into the message', async () => {
    await page.bringToFront();
    await box.fill('Dropped in');
    const dragged = (name: string) =>
      page.evaluateHandle((fileName) => {
        const data = new DataTransfer();
        data.items.add(new File(['meeting notes'], fileName, { type: 'text/plain' }));
        return data;
      }, name);
    const isDropTarget = () => compose.evaluate((form) => form.classList.contains('dropping'));

    const notes = await dragged('notes.txt');
    await compose.dispatchEvent('dragenter', { dataTransfer: notes });
    await expect(isDropTarget()).resolves.toBe(true);
    await compose.dispatchEvent('drop', { dataTransfer: notes });
    await expect(isDropTarget()).resolves.toBe(false);
    await boxMatches(/^Dropped in\n\[notes\.txt\]\(\/user_uploads\/[^)]+\/notes\.txt\)\n$/);

    await page.locator('.message-scroller').dispatchEvent('drop', { dataTransfer: await dragged('agenda.txt') });
    await boxMatches(/^Dropped in\n\[notes\.txt\]\([^)]+\)\n\[agenda\.txt\]\(\/user_uploads\/[^)]+\/agenda\.txt\)\n$/);
    await box.fill('');
  });

  test('an upload the server refuses leaves the draft as it was and shows the server’s message', async () => {
    await page.bringToFront();
    await box.fill('Before the refusal');
    // A server whose limit is lower than the one it announced: its refusal, as upstream words it.
    await page.evaluate(() => {
      const original = window.fetch;
      window.fetch = async (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        if (!url.includes('/api/v1/user_uploads')) return original(input, init);
        window.fetch = original;
        const msg = "File is larger than this server's configured maximum upload size (1 MiB).";
        return Response.json({ result: 'error', msg, code: 'BAD_REQUEST' }, { status: 400 });
      };
    });
    await chooseFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG });
    await compose.getByRole('alert').getByText("File is larger than this server's configured maximum upload size (1 MiB).").waitFor();
    await expect(box.inputValue()).resolves.toBe('Before the refusal');
    await box.fill('');
  });

  test('a file over the server’s limit is refused before it is sent, with upstream’s message, and the draft stays as it was', async () => {
    await page.bringToFront();
    await box.fill('Keep this draft');
    // One byte over register's max_file_upload_size_mib (25 MiB in the demo realm); sparse on disk.
    const big = join(scratch, 'big.bin');
    await writeFile(big, '');
    await truncate(big, 25 * 1024 * 1024 + 1);
    await chooseFiles(big);

    await compose.getByRole('alert').getByText('big.bin exceeds the maximum file size for attachments (25 MB).').waitFor();
    await expect(box.inputValue()).resolves.toBe('Keep this draft');
    await expect(compose.getByText(/^Uploading /).count()).resolves.toBe(0);
    await box.fill('');
  });
});
