// Scrolling back through a 10,000-message topic in the chat app (issue 7: "a windowed list so
// 10,000 messages scroll smoothly"): frame intervals while a person wheels up through it, and
// how many message elements the page holds meanwhile.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { PREBUILT_REALM_SUFFIX, prebuiltRealm } from '../../build/prebuilt-realms.ts';
import { freshProfile } from './chromium.ts';

const MESSAGES = 10_000;
const SCENARIO = 'bench-long-topic';
const WHEEL_STEPS = 400;
const WHEEL_PX = 600;
const TIMEOUT_MS = 120_000;
const ANN_KEY = 'AnnKey00000000000000000000000001';

export interface LongTopicScroll {
  messages: number;
  /** rAF-to-rAF intervals while scrolling, ms. */
  frames: number[];
  /** The oldest message on screen when the scroll ended: how far back the reader got. */
  oldestShown: number;
  /** The most message elements the page held at once. */
  maxElements: number;
  scrolledPx: number;
}

/** A realm of two people and one topic of 10,000 messages of varied length. */
function longTopicScenario(): unknown {
  const people = [
    { email: 'ann@long.test', full_name: 'Ann Archer', password: 'ann-pass', api_key: ANN_KEY },
    { email: 'ben@long.test', full_name: 'Ben Baker', password: 'ben-pass', api_key: 'BenKey00000000000000000000000001' },
  ];
  const shapes = [
    (i: number) => `Message ${i}: a short one.`,
    (i: number) => `Message ${i} has **bold**, _italic_ and \`code\`, and runs long enough to wrap onto a second line on most screens, as chat messages often do.`,
    (i: number) => `Message ${i} lists:\n- one\n- two\n- three`,
    (i: number) => `Message ${i} quotes:\n> what was said before\n\nand answers it.`,
    (i: number) => `Message ${i} with code:\n\`\`\`\nconst answer = ${i};\n\`\`\``,
  ];
  const start = 1_700_000_000;
  return {
    realm: { name: 'Long Topic', host: 'long.test' },
    users: people,
    channels: [{ name: 'long', subscribers: people.map((p) => p.email) }],
    messages: Array.from({ length: MESSAGES }, (_, i) => ({
      sender: people[i % 3 === 0 ? 1 : 0].email,
      channel: 'long',
      topic: 'scroll',
      content: shapes[(i * 7) % shapes.length](i + 1),
      timestamp: start + i * 30,
    })),
  };
}

/** Writes the scenario and its prebuilt realm into the served build, as the build does for its own. */
async function addScenario(outDir: string): Promise<void> {
  const path = join(outDir, 'scenarios', `${SCENARIO}.json`);
  await writeFile(path, JSON.stringify(longTopicScenario()));
  await writeFile(join(outDir, 'scenarios', `${SCENARIO}${PREBUILT_REALM_SUFFIX}`), await prebuiltRealm(path));
}

export async function measureLongTopicScroll(origin: string, outDir: string): Promise<LongTopicScroll> {
  await addScenario(outDir);
  const profile = await freshProfile();
  try {
    const page = profile.context.pages()[0] ?? (await profile.context.newPage());
    page.setDefaultTimeout(TIMEOUT_MS);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${origin}/?scenario=${SCENARIO}`);
    await page.waitForFunction(() => document.documentElement.dataset.app === 'ready');
    await page.getByLabel('Email').fill('ann@long.test');
    await page.getByLabel('Password').fill('ann-pass');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    // All read: the topic opens at its newest message, and the reader goes back from there.
    await page.evaluate(async (auth) => {
      await fetch('/api/v1/mark_all_as_read', { method: 'POST', headers: { Authorization: `Basic ${btoa(auth)}` } });
      location.hash = '#narrow/channel/1-long/topic/scroll';
    }, `ann@long.test:${ANN_KEY}`);
    await page.getByRole('heading', { name: '#long › scroll' }).waitFor();
    await page.waitForFunction(() => document.documentElement.dataset.app === 'ready' && document.querySelector('[data-message-id]'));
    await page.mouse.move(640, 400);
    return await wheelUp(page);
  } finally {
    await profile.close();
  }
}

/** Wheels up through the topic as a person would, recording every frame meanwhile. */
async function wheelUp(page: Page): Promise<LongTopicScroll> {
  await page.evaluate(() => {
    const state = window as unknown as { benchFrames: number[]; benchMaxElements: number; benchScrolling: boolean };
    state.benchFrames = [];
    state.benchMaxElements = 0;
    state.benchScrolling = true;
    let last = performance.now();
    const frame = (now: number) => {
      state.benchFrames.push(now - last);
      last = now;
      state.benchMaxElements = Math.max(state.benchMaxElements, document.querySelectorAll('[data-message-id]').length);
      if (state.benchScrolling) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const scroller = page.locator('.message-scroller');
  const before = await scroller.evaluate((element) => element.scrollTop);
  let scrolled = 0;
  let top = before;
  for (let step = 0; step < WHEEL_STEPS; step++) {
    await page.mouse.wheel(0, -WHEEL_PX);
    // The next wheel once the page has drawn this one, as with a person's hand on the wheel.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    const now = await scroller.evaluate((element) => element.scrollTop);
    scrolled += Math.max(0, top - now);
    top = now;
  }
  return page.evaluate(
    ({ scrolledPx, messages }) => {
      const state = window as unknown as { benchFrames: number[]; benchMaxElements: number; benchScrolling: boolean };
      state.benchScrolling = false;
      return {
        messages,
        frames: state.benchFrames.slice(1),
        oldestShown: Math.min(...[...document.querySelectorAll('[data-message-id]')].map((element) => Number(element.getAttribute('data-message-id')))),
        maxElements: state.benchMaxElements,
        scrolledPx,
      };
    },
    { scrolledPx: scrolled, messages: MESSAGES },
  );
}
