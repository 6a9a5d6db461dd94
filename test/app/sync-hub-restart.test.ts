import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { basicAuth, killServeProcesses, type ServeProcess, startServe, writeScenarioFile } from '../node-host/serve-process.ts';
import { launchBrowser, messageWithText, send } from './chat-browser.ts';
import { CuttableProxy } from './cuttable-proxy.ts';
import { type HubUser, logInOnHub, openInNewProfile, waitForSync } from './trainee.ts';

/**
 * The trainer's laptop restarts: the hub (`offline-realm serve --data DIR --app`, a process of
 * its own) is killed while both trainees keep chatting, then started again on the same
 * directory and port. Every change made meanwhile reaches it exactly once, and the hub and both
 * browsers end with the same messages under the same ids.
 */

const TOPIC = 'restart';
const TOPIC_HASH = `#narrow/channel/1-general/topic/${TOPIC}`;
const MARK = { email: 'mark@zulip.test', password: 'mark-pass' };
const OLIVIA = { email: 'olivia@zulip.test', password: 'olivia-pass', apiKey: 'OwnerKey000000000000000000000001' };

let dir: string;
let hub: ServeProcess;
let port: number;
let proxyA: CuttableProxy;
let proxyB: CuttableProxy;
let browser: Browser;

const hubArgs = () => ['--data', join(dir, 'realm'), '--port', String(port), '--app', '--app-dir', inject('appDir')];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'offline-realm-hub-restart-'));
  port = 0;
  hub = await startServe(['--scenario', writeScenarioFile(dir), ...hubArgs()]);
  port = Number(new URL(hub.url).port);
  proxyA = await CuttableProxy.start(port);
  proxyB = await CuttableProxy.start(port);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await proxyA?.close();
  await proxyB?.close();
  killServeProcesses();
  await rm(dir, { recursive: true, force: true });
});

async function trainee(proxy: CuttableProxy, user: HubUser): Promise<Page> {
  const page = await openInNewProfile(browser, `${proxy.url}/?sync=${proxy.url}${TOPIC_HASH}`);
  await logInOnHub(page, user);
  return page;
}

/** The topic's messages as the hub's API gives them to Olivia: [id, content] in order. */
async function onHub(): Promise<[number, string][]> {
  const narrow = JSON.stringify([
    { operator: 'channel', operand: 'general' },
    { operator: 'topic', operand: TOPIC },
  ]);
  const query = new URLSearchParams({ anchor: 'newest', num_before: '100', num_after: '0', narrow, apply_markdown: 'false' });
  const response = await fetch(`${hub.url}/api/v1/messages?${query}`, { headers: basicAuth(OLIVIA.email, OLIVIA.apiKey) });
  const { messages } = (await response.json()) as { messages: { id: number; content: string }[] };
  return messages.map((message) => [message.id, message.content]);
}

/** The topic's messages a trainee's page shows: [id, text] in order. */
async function shown(page: Page): Promise<[number, string][]> {
  return page
    .locator('[data-message-id]')
    .evaluateAll((rows) => rows.map((row) => [Number((row as HTMLElement).dataset.messageId), row.querySelector('.message-content')?.textContent?.trim() ?? '']));
}

test('a hub killed and restarted on its --data while both trainees chat ends with every change once, the same on the hub and in both browsers', async () => {
  const [a, b] = await Promise.all([trainee(proxyA, MARK), trainee(proxyB, OLIVIA)]);
  await send(a, 'before the restart');
  await messageWithText(b, 'before the restart').waitFor();

  hub.child.kill('SIGKILL');
  await hub.exited;
  await send(a, 'from A while the hub is down');
  await send(b, 'from B while the hub is down');
  await messageWithText(a, 'from A while the hub is down').waitFor();
  await waitForSync(a, 'offline');
  await waitForSync(b, 'offline');
  const [pendingA] = (await shown(a)).filter(([, text]) => text === 'from A while the hub is down').map(([id]) => id);
  expect(pendingA).toBeGreaterThanOrEqual(PROVISIONAL_ID_BASE);

  hub = await startServe(hubArgs());
  await messageWithText(b, 'from A while the hub is down').waitFor();
  await messageWithText(a, 'from B while the hub is down').waitFor();
  await waitForSync(a, 'online');
  await waitForSync(b, 'online');

  const truth = await onHub();
  // The two waiting messages arrive in whichever order the replicas reach the restarted hub.
  expect(truth.map(([, content]) => content)[0]).toBe('before the restart');
  expect(truth.map(([, content]) => content).sort()).toEqual(['before the restart', 'from A while the hub is down', 'from B while the hub is down']);
  expect(truth.every(([id]) => id < PROVISIONAL_ID_BASE)).toBe(true);
  // Each browser catches up with the hub's ids and order: no provisional copy left behind.
  for (const page of [a, b]) {
    await page.waitForFunction((ids) => JSON.stringify([...document.querySelectorAll('[data-message-id]')].map((row) => Number((row as HTMLElement).dataset.messageId))) === JSON.stringify(ids), truth.map(([id]) => id));
    expect(await shown(page)).toEqual(truth);
  }
});
