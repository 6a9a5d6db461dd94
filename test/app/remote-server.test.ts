import type { Browser } from 'playwright';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import { createInProcessEngine } from '../../src/hosts/msw.ts';
import { createNodeServer, type NodeServer } from '../../src/hosts/node-http.ts';
import { api, launchBrowser, messageWithText, newProfile, OLIVIA, openChat, send, waitAppReady } from './chat-browser.ts';

let browser: Browser;
let engine: Engine;
let server: NodeServer;
beforeAll(async () => {
  browser = await launchBrowser();
  engine = await createInProcessEngine();
  server = await createNodeServer(engine, { port: 0 });
});
afterAll(async () => {
  await browser.close();
  await server.close();
  engine.close();
});

/** Messages of a topic as a server has them, asked from Node. */
async function topicOnNodeServer(topic: string): Promise<string[]> {
  const query = new URLSearchParams({
    anchor: 'newest',
    num_before: '10',
    num_after: '0',
    apply_markdown: 'false',
    narrow: JSON.stringify([{ operator: 'topic', operand: topic }]),
  });
  const response = await fetch(`${server.url}/api/v1/messages?${query}`, { headers: { Authorization: `Basic ${btoa(OLIVIA)}` } });
  return ((await response.json()).messages as { content: string }[]).map((m) => m.content);
}

test('pointed at another server of this API, the app logs in there and chats through it, not through the server in the browser', async () => {
  const profile = await newProfile(browser);
  const page = await openChat(profile);
  await page.getByText('Server: this browser').click();
  await page.getByLabel('Server URL').fill(server.url);
  await page.getByLabel('Email').fill('olivia@lakeside.test');
  await page.getByLabel('Password').fill('olivia-pass');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
  await waitAppReady(page);
  await expect(page.locator('.server-indicator').textContent()).resolves.toContain(`Server: ${new URL(server.url).host}`);

  await page.evaluate(() => (location.hash = '#narrow/channel/2-general/topic/remote'));
  await send(page, 'sent to the Node server');
  await messageWithText(page, 'sent to the Node server').waitFor();

  expect(await topicOnNodeServer('remote')).toEqual(['sent to the Node server']);
  const inBrowser = await api(page, OLIVIA, 'GET', '/messages', {
    anchor: 'newest',
    num_before: 10,
    num_after: 0,
    narrow: [{ operator: 'topic', operand: 'remote' }],
  });
  expect(inBrowser.messages).toEqual([]);

  // The login (and its server) holds across a reload.
  await page.reload();
  await waitAppReady(page);
  await messageWithText(page, 'sent to the Node server').waitFor();
  await profile.close();
});
