import type { Browser, Locator, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { goTo, launchBrowser, logInAs, messageWithText, newProfile, openChat, WAIT_MS } from './chat-browser.ts';

/** A topic longer than the window: the reader can be scrolled up in it. */
const LONG_TOPIC_HASH = '#narrow/channel/5-engineering/topic/Dark.20mode.20implementation';

let browser: Browser;
let page: Page;
let box: Locator;
let scrollDown: Locator;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await openChat(await newProfile(browser));
  await page.setViewportSize({ width: 390, height: 700 });
  await logInAs(page, 'Olivia Park');
  await goTo(page, LONG_TOPIC_HASH);
  box = page.getByRole('textbox', { name: 'Message', exact: true });
  scrollDown = page.getByRole('button', { name: 'Scroll down to view your message.' });
  await page.waitForFunction(() => (document.querySelector('input[aria-label="Topic"]') as HTMLInputElement | null)?.value === 'Dark mode implementation', undefined, {
    timeout: WAIT_MS,
  });
});
afterAll(async () => {
  await browser.close();
});

/** Whether the message holding `text` shows inside the message list's scroller (a message far from the view is not drawn at all). */
async function inView(text: string): Promise<boolean> {
  const message = messageWithText(page, text);
  if ((await message.count()) === 0) return false;
  return message.evaluate((element) => {
    const shown = element.getBoundingClientRect();
    const scroller = element.closest('.message-scroller')!.getBoundingClientRect();
    return shown.top < scroller.bottom && shown.bottom > scroller.top;
  });
}

/** Two frames of the page: as long as the list takes to settle on a new last message. */
const twoFrames = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

describe('a message sent while the reader is scrolled up', () => {
  test('is announced as sent, with a button that scrolls down to it and selects it', async () => {
    // Up to the top with the wheel, as a reader scrolls.
    const scroller = page.locator('.message-scroller');
    await scroller.hover();
    await expect
      .poll(async () => {
        await page.mouse.wheel(0, -600);
        return scroller.evaluate((element) => element.scrollTop);
      }, { timeout: WAIT_MS })
      .toBe(0);
    await box.fill('sent while reading older ones');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await scrollDown.waitFor();
    expect(await inView('sent while reading older ones')).toBe(false);
    // From the keyboard: the message is then the selected one, and the list has the focus.
    await scrollDown.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => inView('sent while reading older ones'), { timeout: WAIT_MS }).toBe(true);
    await scrollDown.waitFor({ state: 'detached' });
    expect((await messageWithText(page, 'sent while reading older ones').getAttribute('class'))?.split(' ')).toContain('selected');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('message-scroller');
  });

  test('is simply shown when the reader was at the bottom', async () => {
    await box.fill('sent at the bottom');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => inView('sent at the bottom'), { timeout: WAIT_MS }).toBe(true);
    await twoFrames();
    await twoFrames();
    expect(await scrollDown.count()).toBe(0);
  });
});
