import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, goTo, launchBrowser, logInAs, MARCUS, messageAction, messageElement, newProfile, OLIVIA, openChat, shownMessageIds, WAIT_MS, waitAppReady } from './chat-browser.ts';

let browser: Browser;
let profile: BrowserContext;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  profile = await newProfile(browser);
  page = await openChat(profile, '/#narrow/channel/5-engineering/topic/Release.202.2E4');
  await logInAs(page, 'Olivia Park');
});
afterAll(async () => {
  await browser.close();
});

/** The ids the server gives for a narrow (all of them: the demo's narrows are small). */
async function serverIds(narrow: unknown[]): Promise<number[]> {
  const answer = await api(page, OLIVIA, 'GET', '/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow });
  return (answer.messages as { id: number }[]).map((message) => message.id);
}

/** Waits until the drawn messages are exactly what the server says the narrow holds (after scrolling to load them all if needed). */
async function expectShown(narrow: unknown[]): Promise<number[]> {
  const expected = await serverIds(narrow);
  expect(expected.length).toBeGreaterThan(0);
  await expect.poll(async () => (await shownMessageIds(page)).every((id) => expected.includes(id)) && (await shownMessageIds(page)).length > 0, { timeout: WAIT_MS }).toBe(true);
  return expected;
}

describe('reading by URL', () => {
  test('a topic URL opened directly shows that topic, under its channel › topic header, each message with its sender', async () => {
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('#engineering › Release 2.4');
    const expected = await expectShown([
      { operator: 'channel', operand: 'engineering' },
      { operator: 'topic', operand: 'Release 2.4' },
    ]);
    const first = await api(page, OLIVIA, 'GET', `/messages/${expected[expected.length - 1]}`);
    await expect(messageElement(page, first.message.id).textContent()).resolves.toContain(first.message.sender_full_name);
    await expect(page.locator('.recipient-header').first().textContent()).resolves.toMatch(/engineering\s*›\s*Release 2\.4/);
  });

  test('the empty topic’s URL in upstream’s form (topic/ with nothing after it) opens that topic, reloaded too', async () => {
    await goTo(page, '#narrow/channel/2-general/topic/');
    await page.getByRole('heading', { level: 1, name: '#general › general chat' }).waitFor();
    await page.reload();
    await waitAppReady(page);
    await page.getByRole('heading', { level: 1, name: '#general › general chat' }).waitFor();
    await expectShown([
      { operator: 'channel', operand: 'general' },
      { operator: 'topic', operand: '' },
    ]);
  });

  test('the starred view shows the starred messages, and a DM URL the conversation with that person', async () => {
    await goTo(page, '#narrow/is/starred');
    await page.getByRole('heading', { name: 'Starred messages' }).waitFor();
    const starred = await expectShown([{ operator: 'is', operand: 'starred' }]);
    // Only rows near the viewport are drawn: the oldest starred message comes into view at the top.
    await page.locator('.message-scroller').evaluate((scroller) => scroller.scrollTo(0, 0));
    await messageElement(page, starred[0]).waitFor();

    await goTo(page, '#narrow/dm/9-Marcus-Reed');
    await page.getByRole('heading', { name: 'You and Marcus Reed' }).waitFor();
    await expectShown([{ operator: 'dm', operand: [9] }]);
    // Composing in a DM narrow is addressed to it: its person's pill in To.
    await expect(page.getByRole('list', { name: 'Recipients' }).textContent()).resolves.toContain('Marcus Reed');
  });

  test('upstream’s other links open their narrows: the DM feed (the sidebar’s heading), a sender in a channel, a search in a channel', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Direct messages', exact: true }).click();
    await page.getByRole('heading', { name: 'Direct message feed' }).waitFor();
    expect(await page.evaluate(() => location.hash)).toBe('#narrow/is/dm');
    await expectShown([{ operator: 'is', operand: 'dm' }]);
    // As upstream, the DM feed is a view of whole conversations: what it shows is read.
    await expect.poll(() => serverIds([{ operator: 'is', operand: 'dm' }, { operator: 'is', operand: 'unread' }]), { timeout: WAIT_MS }).toEqual([]);

    await goTo(page, '#narrow/sender/9-Marcus-Reed/channel/5-engineering');
    await page.getByRole('heading', { name: 'Search: sender:marcus@lakeside.test channel:engineering' }).waitFor();
    await expectShown([
      { operator: 'sender', operand: 9 },
      { operator: 'channel', operand: 5 },
    ]);

    await goTo(page, '#narrow/channel/5-engineering/search/release');
    await page.getByRole('heading', { name: 'Search: channel:engineering release' }).waitFor();
    await expectShown([
      { operator: 'channel', operand: 5 },
      { operator: 'search', operand: 'release' },
    ]);
  });

  test('Reactions in the sidebar shows my messages that have reactions, as upstream’s view of that name', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Reactions', exact: true }).click();
    await page.getByRole('heading', { name: 'Reactions', level: 1 }).waitFor();
    expect(await page.evaluate(() => location.hash)).toBe('#narrow/has/reaction/sender/8-Olivia-Park');
    await expectShown([
      { operator: 'has', operand: 'reaction' },
      { operator: 'sender', operand: 8 },
    ]);
  });

  test('a link into the app (a message’s channel link) changes the view like any narrow', async () => {
    await goTo(page, '#narrow/channel/5-engineering/topic/Release.202.2E4');
    await page.getByRole('heading', { name: '#engineering › Release 2.4' }).waitFor();
    await page.locator('.recipient-header').first().getByRole('link', { name: /engineering/ }).click();
    await page.getByRole('heading', { name: '#engineering' }).waitFor();
    expect(await page.evaluate(() => location.hash)).toBe('#narrow/channel/5-engineering');
  });
});

describe('settings', () => {
  test('the theme setting is kept by the server and applied to the page; emoticon conversion is kept by the server', async () => {
    await page.getByRole('button', { name: 'Menu for Olivia Park' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.getByLabel('Theme').selectOption({ label: 'Dark' });

    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), { timeout: WAIT_MS }).toBe('dark');
    const settings = await api(page, OLIVIA, 'POST', '/register', { fetch_event_types: ['user_settings'] });
    expect(settings.user_settings.color_scheme).toBe(2);
    await page.getByLabel('Theme').selectOption({ label: 'Automatic (follow the system)' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme ?? 'none'), { timeout: WAIT_MS }).toBe('none');

    // Emoticon conversion is the server's, at send: the setting is what the app keeps there.
    await page.getByRole('checkbox', { name: /Convert emoticons before sending/ }).check();
    const emoticons = async () => (await api(page, OLIVIA, 'POST', '/register', { fetch_event_types: ['user_settings'] })).user_settings.translate_emoticons;
    await expect.poll(emoticons, { timeout: WAIT_MS }).toBe(true);
    await page.getByRole('checkbox', { name: /Convert emoticons before sending/ }).uncheck();
    await expect.poll(emoticons, { timeout: WAIT_MS }).toBe(false);
  });

  test('an alert word added in Settings flags the messages that contain it; removed, it is gone from the server', async () => {
    await page.getByLabel('New alert word').fill('tacos');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('list', { name: 'Alert words' }).getByText('tacos').waitFor();
    const words = async () => (await api(page, OLIVIA, 'GET', '/users/me/alert_words')).alert_words as string[];
    expect(await words()).toEqual(['tacos']);
    const sent = await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'lunch', content: 'Tacos on Friday?' });
    expect((await api(page, OLIVIA, 'GET', `/messages/${sent.id}`)).message.flags).toContain('has_alert_word');

    await page.getByRole('button', { name: 'Remove the alert word tacos' }).click();
    await expect.poll(words, { timeout: WAIT_MS }).toEqual([]);
    await page.getByRole('list', { name: 'Alert words' }).getByText('tacos').waitFor({ state: 'detached' });
  });

  test('a custom emoji added in Settings is on the server and offered in the compose box; removed, it is deactivated', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    await page.getByLabel('Emoji name').fill('lakeside');
    await page.getByLabel('Image').setInputFiles({ name: 'lakeside.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Add emoji' }).click();
    const listed = page.getByRole('list', { name: 'Custom emoji' }).getByRole('listitem').filter({ hasText: ':lakeside:' });
    await listed.waitFor();
    const onServer = async () => Object.values((await api(page, OLIVIA, 'GET', '/realm/emoji')).emoji as Record<string, { name: string; deactivated: boolean }>).find((e) => e.name === 'lakeside');
    expect(await onServer()).toMatchObject({ name: 'lakeside', deactivated: false });

    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.click();
    await box.pressSequentially('at the :lakes');
    await page.getByRole('option', { name: ':lakeside:', selected: true }).waitFor();
    await box.fill('');

    // The Settings panel stayed open beside the messages.
    await listed.getByRole('button', { name: 'Remove :lakeside:' }).click();
    await listed.waitFor({ state: 'detached' });
    await expect.poll(async () => (await onServer())?.deactivated, { timeout: WAIT_MS }).toBe(true);
  });

  test('a channel muted in its settings is shown muted in the sidebar', async () => {
    await page.getByRole('group', { name: '#random' }).getByLabel('Muted').check();
    await page.locator('.channel-item.muted', { hasText: 'random' }).waitFor();
    const subs = await api(page, OLIVIA, 'GET', '/users/me/subscriptions');
    expect((subs.subscriptions as { name: string; is_muted: boolean }[]).find((sub) => sub.name === 'random')?.is_muted).toBe(true);
    await page.getByRole('group', { name: '#random' }).getByLabel('Muted').uncheck();
    await page.locator('.channel-item:not(.muted)', { hasText: 'random' }).waitFor();
  });
});

describe('typing', () => {
  test('typing in a topic shows “… is typing” to the other person in that topic', async () => {
    const other = await openChat(profile, '/#narrow/channel/2-general/topic/typing.20test');
    // Logs the new tab (which opens as the browser's last login) out first, and waits for it.
    await logInAs(other, 'Marcus Reed');
    await goTo(page, '#narrow/channel/2-general/topic/typing.20test');
    await page.bringToFront();
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    const notice = other.getByText('Olivia Park is typing…');
    // Keys keep coming, as when a person types (a pause of 5 s would send "stop"), until the other tab shows it.
    const started = Date.now();
    while (!(await notice.isVisible())) {
      expect(Date.now() - started).toBeLessThan(WAIT_MS);
      await box.press('a');
      await notice.waitFor({ timeout: 1000 }).catch(() => undefined);
    }
    await other.close();
  });
});

describe('a channel I am not subscribed to', () => {
  test('shows its conversation with a Subscribe button in its heading, which subscribes me and then goes', async () => {
    const tomas = await openChat(await newProfile(browser));
    await logInAs(tomas, 'Tomás Silva');
    await goTo(tomas, '#narrow/channel/6-design');
    await tomas.getByRole('heading', { name: '#design' }).waitFor();
    await tomas.locator('[data-message-id]').first().waitFor();
    // Composing here is addressed to it, though not subscribed.
    const channelField = tomas.getByRole('combobox', { name: 'Channel' });
    await expect.poll(() => channelField.inputValue()).toBe('6');
    await expect(channelField.locator('option:checked').textContent()).resolves.toBe('#design');
    const subscribe = tomas.getByRole('button', { name: 'Subscribe to design' });
    await subscribe.focus();
    await tomas.keyboard.press('Enter');
    await subscribe.waitFor({ state: 'detached', timeout: WAIT_MS });
    // The focus did not go with the button: it is in the message box, to write in the channel joined.
    expect(await tomas.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message');
    const mine = await api(tomas, 'tomas@lakeside.test:i7RbnK2aZ6SUlWThTfYUo6LhokguTJr4', 'GET', '/users/me/subscriptions');
    expect((mine.subscriptions as { name: string }[]).map((sub) => sub.name)).toContain('design');
    await tomas.close();
  });
});

describe('browsing channels', () => {
  test('leaving a private channel is asked first (Cancel keeps it); a public one is left at once', async () => {
    const mine = async () => ((await api(page, OLIVIA, 'GET', '/users/me/subscriptions')).subscriptions as { name: string }[]).map((sub) => sub.name);
    await page.getByRole('button', { name: 'Browse channels' }).click();
    await page.getByRole('button', { name: 'Unsubscribe from leadership' }).click();
    const asked = page.getByRole('dialog', { name: 'Unsubscribe from #leadership?' });
    await asked.getByRole('button', { name: 'Cancel' }).click();
    await asked.waitFor({ state: 'detached' });
    expect(await mine()).toContain('leadership');

    await page.getByRole('button', { name: 'Unsubscribe from random' }).click();
    await page.getByRole('button', { name: 'Subscribe to random' }).waitFor();
    expect(await mine()).not.toContain('random');
    await page.getByRole('button', { name: 'Subscribe to random' }).click();
    await page.getByRole('button', { name: 'Unsubscribe from random' }).waitFor();

    // Left for good: no Subscribe the server would refuse, here or in the channel's heading.
    await page.getByRole('button', { name: 'Unsubscribe from leadership' }).click();
    await asked.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
    await expect.poll(mine, { timeout: WAIT_MS }).not.toContain('leadership');
    await page.getByText('Private: a member adds you').waitFor();
    await expect(page.getByRole('button', { name: 'Subscribe to leadership' }).count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
    await goTo(page, '#narrow/channel/4-leadership');
    await page.getByRole('heading', { level: 1, name: '#leadership' }).waitFor();
    await expect(page.getByRole('button', { name: 'Subscribe to leadership' }).count()).resolves.toBe(0);
  });
});

describe('scrolled away from the newest messages', () => {
  /** Marcus sends `count` numbered messages to a topic of its own, through the API; their ids in order. */
  async function longTopic(topic: string, count: number): Promise<number[]> {
    return page.evaluate(
      async ({ auth, topic, count }) => {
        const ids: number[] = [];
        for (let n = 1; n <= count; n += 1) {
          const body = new URLSearchParams({ type: 'channel', to: 'random', topic, content: `line ${n}` });
          const response = await fetch('/api/v1/messages', { method: 'POST', headers: { Authorization: `Basic ${btoa(auth)}` }, body });
          ids.push(((await response.json()) as { id: number }).id);
        }
        return ids;
      },
      { auth: MARCUS, topic, count },
    );
  }

  const toNewest = () => page.getByRole('button', { name: 'Scroll to the newest messages' });

  test('the arrow shows the newest message and then goes', async () => {
    const ids = await longTopic('scroll arrow', 40);
    await goTo(page, `#narrow/channel/3-random/topic/scroll.20arrow/near/${ids[0]}`);
    await messageElement(page, ids[0]).waitFor();
    await toNewest().click();
    await messageElement(page, ids.at(-1)!).waitFor();
    await expect.poll(() => messageElement(page, ids.at(-1)!).evaluate((element) => element.getBoundingClientRect().bottom <= innerHeight)).toBe(true);
    await toNewest().waitFor({ state: 'detached' });
  });

  test('opened far above the newest (they are not loaded yet), the arrow fetches and shows them', async () => {
    const ids = await longTopic('scroll arrow far', 130);
    await goTo(page, `#narrow/channel/3-random/topic/scroll.20arrow.20far/near/${ids[0]}`);
    await messageElement(page, ids[0]).waitFor();
    expect(await messageElement(page, ids.at(-1)!).count()).toBe(0);
    await toNewest().click();
    await messageElement(page, ids.at(-1)!).waitFor();
    await toNewest().waitFor({ state: 'detached' });
  });
});

describe('following a topic', () => {
  test('Follow topic makes the server count it followed (is:followed finds it); Unfollow undoes it; Mute and Follow replace each other', async () => {
    const followed = [{ operator: 'is', operand: 'followed' }];
    expect(await serverIds(followed)).toEqual([]);
    await goTo(page, '#narrow/channel/5-engineering/topic/Bug.20bash');
    await page.getByRole('heading', { name: '#engineering › Bug bash' }).waitFor();
    await page.getByRole('button', { name: 'Follow topic', exact: true }).click();
    const unfollow = page.getByRole('button', { name: 'Unfollow topic', exact: true });
    await expect(unfollow.getAttribute('aria-pressed')).resolves.toBe('true');
    const inTopic = await serverIds([
      { operator: 'channel', operand: 'engineering' },
      { operator: 'topic', operand: 'Bug bash' },
    ]);
    await expect.poll(() => serverIds(followed)).toEqual(inTopic);

    await unfollow.click();
    await expect(page.getByRole('button', { name: 'Follow topic', exact: true }).getAttribute('aria-pressed')).resolves.toBe('false');
    await expect.poll(() => serverIds(followed)).toEqual([]);

    // One policy at a time, as upstream: following a muted topic unmutes it.
    await page.getByRole('button', { name: 'Mute topic', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Unmute topic', exact: true }).getAttribute('aria-pressed')).resolves.toBe('true');
    await page.getByRole('button', { name: 'Follow topic', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Unfollow topic', exact: true }).getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(page.getByRole('button', { name: 'Mute topic', exact: true }).getAttribute('aria-pressed')).resolves.toBe('false');
    await page.getByRole('button', { name: 'Unfollow topic', exact: true }).click();
    await page.getByRole('button', { name: 'Follow topic', exact: true }).waitFor();
  });
});

describe('a spoiler', () => {
  test('shows its header only until clicked, and opens and closes from the keyboard', async () => {
    const sent = await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'spoilers', content: '```spoiler Plot twist\nThe butler did it\n```' });
    await goTo(page, `#narrow/channel/2-general/topic/spoilers/near/${sent.id}`);
    const message = messageElement(page, sent.id as number);
    const header = message.getByRole('button', { name: 'Plot twist' });
    const content = message.getByText('The butler did it');
    await header.waitFor();
    await expect(content.isVisible()).resolves.toBe(false);
    await header.click();
    await content.waitFor({ state: 'visible' });
    await expect(header.getAttribute('aria-expanded')).resolves.toBe('true');
    await header.focus();
    await page.keyboard.press('Enter');
    await content.waitFor({ state: 'hidden' });
    await page.keyboard.press(' ');
    await content.waitFor({ state: 'visible' });
  });
});

describe('math', () => {
  test('a formula is laid out by KaTeX in its own fonts, its MathML kept for screen readers only', async () => {
    const sent = await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'math', content: 'Area: $$\\pi r^2$$' });
    await goTo(page, `#narrow/channel/2-general/topic/math/near/${sent.id}`);
    const math = messageElement(page, sent.id as number).locator('.katex');
    await math.waitFor();
    // The TeX source is not what shows: the symbols are, set in KaTeX's math font.
    await expect(math.locator('.katex-html').textContent()).resolves.toBe('πr2');
    const pi = math.locator('.katex-html .mathnormal').first();
    await expect(pi.evaluate((element) => getComputedStyle(element).fontFamily)).resolves.toMatch(/^KaTeX_Math/);
    // The font itself is served with the app: it loads.
    await expect(page.evaluate(async () => (await document.fonts.load('italic 16px KaTeX_Math', 'π')).map((face) => face.status))).resolves.toEqual(['loaded']);
    // The MathML takes no room on screen (before, the TeX showed twice).
    const mathml = (await math.locator('.katex-mathml').boundingBox())!;
    expect(mathml.width).toBeLessThanOrEqual(1);
  });
});

describe('a code block', () => {
  test('has upstream’s Copy button, which puts the code (and only the code) on the clipboard', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const code = 'const answer = 42;\nconsole.log(answer);';
    const sent = await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'code', content: `\`\`\`js\n${code}\n\`\`\`` });
    await goTo(page, `#narrow/channel/2-general/topic/code/near/${sent.id}`);
    const message = messageElement(page, sent.id as number);
    await message.locator('.codehilite').hover();
    await message.getByRole('button', { name: 'Copy code' }).click();
    await page.getByText('Code copied to the clipboard.').waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(`${code}\n`);
  });
});

describe('Mark as unread from here', () => {
  test('marks the message and every later one in the view unread on the server, and they stay unread while the view is open', async () => {
    const ids: number[] = [];
    for (const content of ['first', 'second', 'third']) ids.push((await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'unread again', content })).id as number);
    const unreadOnServer = async () =>
      (
        await api(page, OLIVIA, 'GET', '/messages', {
          anchor: 'newest',
          num_before: 10,
          num_after: 0,
          narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'unread again' }, { operator: 'is', operand: 'unread' }],
        })
      ).messages.map((message: { id: number }) => message.id);
    await goTo(page, '#narrow/channel/2-general/topic/unread.20again');
    await expect.poll(unreadOnServer, { timeout: WAIT_MS }).toEqual([]);
    await messageAction(page, ids[1], 'More actions');
    await page.getByRole('menuitem', { name: 'Mark as unread from here' }).click();
    await expect.poll(unreadOnServer, { timeout: WAIT_MS }).toEqual(ids.slice(1));
    // Still shown, still unread: a new message redraws the view, which does not read what it shows
    // (before, the view read them again at once).
    const fourth = (await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'unread again', content: 'fourth' })).id as number;
    await messageElement(page, fourth).waitFor();
    await page.getByRole('button', { name: 'Mark as read', exact: false }).and(page.locator('[title="Mark as read (3 unread)"]')).waitFor();
    expect(await unreadOnServer()).toEqual([...ids.slice(1), fourth]);
    // Opened again, the view reads them.
    await goTo(page, '#inbox');
    await goTo(page, '#narrow/channel/2-general/topic/unread.20again');
    await expect.poll(unreadOnServer, { timeout: WAIT_MS }).toEqual([]);
  });
});

describe('a changed message', () => {
  test('reads “(moved)” once moved to another topic, as it is shown, and “(edited)” once its content changes', async () => {
    const sent = await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'before the move', content: 'on the move' });
    await goTo(page, `#narrow/channel/2-general/near/${sent.id}`);
    const marker = messageElement(page, sent.id as number).locator('.edited-marker');
    await messageElement(page, sent.id as number).waitFor();
    await expect(marker.count()).resolves.toBe(0);
    expect((await api(page, MARCUS, 'PATCH', `/messages/${sent.id}`, { topic: 'after the move', propagate_mode: 'change_one' })).result).toBe('success');
    await expect.poll(() => marker.textContent()).toBe('(moved)');
    await expect(marker.getAttribute('title')).resolves.toMatch(/^Moved \w{3}.* \d{4}/);
    expect((await api(page, MARCUS, 'PATCH', `/messages/${sent.id}`, { content: 'moved and edited' })).result).toBe('success');
    await expect.poll(() => marker.textContent()).toBe('(edited)');
  });
});

describe('a long message', () => {
  test('shows condensed with Show more, which opens it whole and becomes Show less; a short one has neither', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => `line ${i + 1} of the build log`).join('\n\n');
    const long = await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'long', content: lines });
    const short = await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'long', content: 'a short one' });
    await goTo(page, `#narrow/channel/2-general/topic/long/near/${long.id}`);
    const message = messageElement(page, long.id as number);
    const content = message.locator('.message-content');
    const clipped = () => content.evaluate((element) => element.scrollHeight - element.clientHeight);
    await message.getByRole('button', { name: 'Show more' }).click();
    await expect(message.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).resolves.toBe('true');
    await expect.poll(clipped).toBe(0);
    await message.getByRole('button', { name: 'Show less' }).click();
    await expect.poll(clipped).toBeGreaterThan(500);
    await expect(messageElement(page, short.id as number).getByRole('button', { name: /^Show (more|less)$/ }).count()).resolves.toBe(0);
  });
});

describe('links and times in a message', () => {
  test('a topic link opens the topic in this tab; a global time reads in the browser’s clock, the instant kept as its title', async () => {
    const content = 'Meeting at <time:2025-11-20T15:00:00Z>, notes in #**engineering>Release 2.4**';
    const sent = await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'links', content });
    await goTo(page, `#narrow/channel/2-general/topic/links/near/${sent.id}`);
    const message = messageElement(page, sent.id as number);
    const time = message.locator('.message-content time');
    await expect(time.getAttribute('title')).resolves.toBe('2025-11-20T15:00:00Z');
    const shown = await time.textContent();
    expect(shown).not.toContain('2025-11-20T');
    expect(shown).toMatch(/Nov/);

    const link = message.getByRole('link', { name: '#engineering > Release 2.4' });
    await expect(link.getAttribute('target')).resolves.toBeNull();
    await link.click();
    await page.getByRole('heading', { name: '#engineering › Release 2.4', level: 1 }).waitFor();
    expect(page.context().pages()).toHaveLength(1);
  });
});

describe('a /me message', () => {
  test('reads as its sender doing it, as upstream shows it', async () => {
    const sent = await api(page, MARCUS, 'POST', '/messages', { type: 'channel', to: 'general', topic: 'me', content: '/me waves hello' });
    await goTo(page, `#narrow/channel/2-general/topic/me/near/${sent.id}`);
    const content = messageElement(page, sent.id as number).locator('.message-content');
    await expect.poll(() => content.textContent()).toBe('Marcus Reed waves hello');
  });
});

describe('a channel with many topics', () => {
  test('lists its 8 most recent topics and those with unread messages; More topics shows the rest', async () => {
    for (let n = 1; n <= 10; n += 1) {
      const sent = await api(page, OLIVIA, 'POST', '/messages', { type: 'channel', to: 'random', topic: `note ${n}`, content: `note ${n}` });
      expect(sent.result).toBe('success');
    }
    // A topic of its own, newest of all: what the view reads does not change which others are unread.
    await goTo(page, '#narrow/channel/3-random/topic/note.2010');
    const topics = page.getByRole('navigation').getByRole('list', { name: 'Topics' });
    const names = () => topics.getByRole('link').locator('.label').allTextContents();
    await expect.poll(names, { timeout: WAIT_MS }).toContain('note 10');
    const all = ((await api(page, OLIVIA, 'GET', '/users/me/3/topics')).topics as { name: string }[]).map((topic) => topic.name);
    const unreadPage = await api(page, OLIVIA, 'GET', '/messages', {
      anchor: 'newest',
      num_before: 1000,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: 'random' },
        { operator: 'is', operand: 'unread' },
      ],
    });
    const unread = new Set((unreadPage.messages as { subject: string }[]).map((message) => message.subject));
    expect(unread.size).toBeGreaterThan(0);
    const expected = all.filter((name, index) => index < 8 || unread.has(name));
    expect(expected.length).toBeLessThan(all.length);
    await expect.poll(names).toEqual(expected);
    const more = topics.getByRole('button', { name: `More topics (${all.length - expected.length})` });
    await more.click();
    await expect.poll(names).toEqual(all);
    await topics.getByRole('button', { name: 'Fewer topics' }).click();
    await expect.poll(names).toEqual(expected);
  });
});
