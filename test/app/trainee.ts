import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Browser, Page } from 'playwright';
import { Engine } from '../../src/engine/engine.ts';
import { createNodeServer, type NodeServer } from '../../src/hosts/node-http.ts';
import { syncChangeJournal } from '../../src/sync/hub/change-journal.ts';
import { SyncHub } from '../../src/sync/hub/sync-hub.ts';
import { TEST_SCENARIO } from '../support/test-realm.ts';
import { launchBrowser, newProfile, waitAppReady } from './chat-browser.ts';
import { CuttableProxy } from './cuttable-proxy.ts';

/** A trainee of the training-room tests: their own browser profile, logged in on the hub. */
export interface HubUser {
  email: string;
  password: string;
}

/** Opens `url` (a `/?sync=` link) in a fresh profile, once the app is ready. */
export async function openInNewProfile(browser: Browser, url: string): Promise<Page> {
  const page = await (await newProfile(browser)).newPage();
  await page.goto(url);
  await waitAppReady(page);
  return page;
}

/** Logs in with the hub's credentials, as a trainee does, and waits until the replica is in sync. */
export async function logInOnHub(page: Page, user: HubUser): Promise<void> {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
  await waitAppReady(page);
  await waitForSync(page, 'online');
}

export const waitForSync = (page: Page, word: string) => page.waitForFunction((expected) => document.documentElement.dataset.sync === expected, word);

/** The hub's id of the message with this (raw) content, if the hub has it. */
export async function hubIdOf(hub: Engine, content: string): Promise<number | undefined> {
  return (await hub.db.messages.toArray()).find((message) => message.content === content)?.id;
}

/** The ids of the messages showing `text` in a trainee's page. */
export function shownIds(page: Page, text: string): Promise<number[]> {
  return page.locator('[data-message-id]', { hasText: text }).evaluateAll((elements) => elements.map((element) => Number((element as HTMLElement).dataset.messageId)));
}

/** Two trainees of the shared test realm, with their hub credentials. */
export const MARK = { email: 'mark@zulip.test', password: 'mark-pass', auth: 'mark@zulip.test:MarkKey0000000000000000000000004' };
export const OLIVIA = { email: 'olivia@zulip.test', password: 'olivia-pass', auth: 'olivia@zulip.test:OwnerKey000000000000000000000001' };

/** A hub (in this process) serving the built app, one cuttable proxy per trainee, and a Chromium. */
export interface TrainingRoom {
  hub: Engine;
  server: NodeServer;
  proxyA: CuttableProxy;
  proxyB: CuttableProxy;
  browser: Browser;
  close(): Promise<void>;
}

export async function startTrainingRoom(appDir: string, chromiumArgs: readonly string[] = []): Promise<TrainingRoom> {
  const hub = await Engine.create({ indexedDB: new IDBFactory(), IDBKeyRange, writeJournal: syncChangeJournal, passwordIterations: 1000 });
  await hub.loadScenario(TEST_SCENARIO);
  const server = await createNodeServer(hub, { port: 0, syncHub: new SyncHub(hub), appDir });
  const proxyA = await CuttableProxy.start(server.port);
  const proxyB = await CuttableProxy.start(server.port);
  const browser = await launchBrowser(chromiumArgs);
  return {
    hub,
    server,
    proxyA,
    proxyB,
    browser,
    close: async () => {
      await browser.close();
      await proxyA.close();
      await proxyB.close();
      hub.queues.close();
      await server.close();
      hub.close();
    },
  };
}
