import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { commands } from 'vitest/browser';
import { callApi, inTab } from './tabs.ts';

const OLIVIA = 'olivia@lakeside.test:pbGan8CP9oJG8HYYILCxegSkvA8TGKc7';
const MARCUS = 'marcus@lakeside.test:31ixqtQ5Vvb44cLyEWHkWV1NXtrMWCJ4';
const origin = inject('appOrigin');

/** Waits until the console's notice line reports the outcome of an action, and returns it. */
function notice(tab: string, expected: string): Promise<{ outcome: string; text: string }> {
  return inTab(
    tab,
    async (expected: string) => {
      for (let waited = 0; waited < 15_000; waited += 50) {
        const line = document.querySelector<HTMLElement>('.notice');
        const outcome = line?.dataset.outcome ?? '';
        if (outcome === 'failed' || (outcome === 'done' && line?.textContent?.includes(expected))) {
          return { outcome, text: line?.textContent ?? '' };
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no notice "${expected}"; last: ${document.querySelector('.notice')?.textContent}`);
    },
    expected,
  );
}

/** Waits until a line of the list matching `selector` contains `text`; returns that line. */
function logLine(tab: string, selector: string, text: string): Promise<string> {
  return inTab(
    tab,
    async ({ selector, text }: { selector: string; text: string }) => {
      for (let waited = 0; waited < 10_000; waited += 50) {
        const line = [...document.querySelectorAll(selector)].find((li) => li.textContent?.includes(text));
        if (line) return line.textContent ?? '';
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no line with "${text}" in ${selector}`);
    },
    { selector, text },
  );
}

function texts(tab: string, selector: string): Promise<string[]> {
  return inTab(tab, async (selector: string) => [...document.querySelectorAll(selector)].map((e) => e.textContent ?? ''), selector);
}

async function everyMessage(tab: string, auth: string): Promise<unknown[]> {
  const answer = await callApi(tab, { method: 'GET', path: '/messages', auth, params: { anchor: 'newest', num_before: 1000, num_after: 0 } });
  expect(answer.status).toBe(200);
  return answer.body.messages as unknown[];
}

async function everyUser(tab: string, auth: string): Promise<unknown[]> {
  const answer = await callApi(tab, { method: 'GET', path: '/users', auth });
  expect(answer.status).toBe(200);
  return answer.body.members as unknown[];
}

function apiKeyShown(tab: string, email: string): Promise<string> {
  return inTab(
    tab,
    async (email: string) => {
      const row = [...document.querySelectorAll('.realm tbody tr')].find((tr) => tr.children[1]?.textContent === email);
      return row?.lastElementChild?.textContent ?? '';
    },
    email,
  );
}

function send(tab: string, auth: string, to: string, topic: string, content: string) {
  return callApi(tab, { method: 'POST', path: '/messages', auth, params: { type: 'stream', to, topic, content } });
}

// One visitor's console, test after test: the demo realm first, then the training realm it loads.
describe('the server console', () => {
  let profile: string;
  let tab: string;
  /** Ruth's `email:api_key` in the training realm, as the console shows it. */
  let ruth: string;
  beforeAll(async () => {
    profile = await commands.openProfile();
    tab = await commands.openTab(profile, `${origin}/console.html`);
    await commands.acceptDialogs(tab);
  });
  afterAll(async () => {
    await commands.closeProfile(profile);
  });

  test('says where the server runs and lists the demo realm’s people with their passwords', async () => {
    expect((await texts(tab, '.location'))[0]).toContain(`${origin}: the engine in a SharedWorker`);
    // The table is filled just after the server is ready.
    expect(await logLine(tab, '.realm tbody tr', 'olivia@lakeside.test')).toContain('olivia@lakeside.testOwnerolivia-pass');
  });

  test('shows a message event in the event log after a send from another tab', async () => {
    // Named once the console's queue is registered: from then on it misses nothing.
    await logLine(tab, '.events h2', 'as seen by Olivia Park');
    const other = await commands.openTab(profile, `${origin}/console.html`);
    expect((await send(other, MARCUS, 'general', 'event log', 'seen by the console')).status).toBe(200);

    expect(await logLine(tab, '.events li', 'event log')).toContain('message#general > event log, from Marcus Reed');
    expect((await texts(tab, '.events h2'))[0]).toBe('Events as seen by Olivia Park');
    await commands.closeTab(other);
  });

  test('loads the training scenario: its people, their passwords, and events seen by its owner', async () => {
    await commands.selectInTab(tab, 'select[name="scenario"]', 'training-basics');
    expect(await notice(tab, 'Loaded the scenario “training-basics”.')).toMatchObject({ outcome: 'done' });

    const rows = await texts(tab, '.realm tbody tr');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toContain('ines@harbor.testOwnerines-pass');
    expect((await texts(tab, 'button[name="reset"]'))[0]).toBe('Reset to “training-basics”');
    ruth = `ruth@harbor.test:${await apiKeyShown(tab, 'ruth@harbor.test')}`;
    expect((await callApi(tab, { method: 'GET', path: '/users/me', auth: ruth })).body.full_name).toBe('Ruth Adler');
    expect((await callApi(tab, { method: 'GET', path: '/users/me', auth: OLIVIA })).status).toBe(401);

    // The console's old queue died with the old realm; it re-registers as the new owner.
    await logLine(tab, '.events h2', 'as seen by Ines Moreau');
    expect((await send(tab, ruth, 'exercises', 'exercise 1: reply in a topic', 'I want to learn narrows')).status).toBe(200);
    expect(await logLine(tab, '.events li', 'exercise 1')).toContain('#exercises > exercise 1: reply in a topic, from Ruth Adler');
  });

  test('exports the realm to a file; after a reset, importing that file brings every message and user back', async () => {
    const kept = await send(tab, ruth, 'general', 'archive', 'only the archive keeps this');
    await callApi(tab, { method: 'POST', path: `/messages/${kept.body.id}/reactions`, auth: ruth, params: { emoji_name: 'tada' } });
    const messagesBefore = await everyMessage(tab, ruth);
    const usersBefore = await everyUser(tab, ruth);

    const file = await commands.downloadFromTab(tab, 'button[name="export"]');
    expect(file.name).toMatch(/^harbor\.test-\d{4}-\d\d-\d\d-\d\d-\d\d\.realm\.json$/);
    expect(JSON.parse(file.text)).toMatchObject({ format: 'offline-realm-archive', version: 1 });
    expect(await notice(tab, 'Exported')).toMatchObject({ outcome: 'done' });

    await commands.clickInTab(tab, 'button[name="reset"]');
    expect(await notice(tab, 'Reset to the scenario “training-basics”.')).toMatchObject({ outcome: 'done' });
    expect(JSON.stringify(await everyMessage(tab, ruth))).not.toContain('only the archive keeps this');

    await commands.uploadToTab(tab, 'input[name="archive"]', file);
    expect(await notice(tab, `Imported the realm from ${file.name}.`)).toMatchObject({ outcome: 'done' });
    expect(await everyMessage(tab, ruth)).toEqual(messagesBefore);
    expect(await everyUser(tab, ruth)).toEqual(usersBefore);
  });

  test('refuses a file that is not a realm archive and keeps the realm', async () => {
    const before = await everyMessage(tab, ruth);
    await commands.uploadToTab(tab, 'input[name="archive"]', { name: 'notes.json', text: '{"realm": {}}' });
    expect(await notice(tab, 'The realm was not replaced')).toEqual({
      outcome: 'failed',
      text: 'The realm was not replaced: $.format: not an Offline Realm archive ("format" must be "offline-realm-archive")',
    });
    expect(await everyMessage(tab, ruth)).toEqual(before);
  });
});
