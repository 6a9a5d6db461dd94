import { afterAll, beforeAll, inject } from 'vitest';
import { commands } from 'vitest/browser';
import { fromWire, toWire, type WireRequest } from '../conformance/harness.ts';
import { runConformance } from '../conformance/run-conformance.ts';
import { inTab } from './tabs.ts';

// The engine's conformance cases (test/conformance/) through the browser host: real fetches from a
// page of the built app, through the Service Worker to the engine in the SharedWorker over IndexedDB.
const origin = inject('appOrigin');

let profile: string;
beforeAll(async () => {
  profile = await commands.openProfile();
  // Keeps the SharedWorker alive while each suite's tab comes and goes.
  await commands.openTab(profile, `${origin}/`);
});
afterAll(async () => {
  await commands.closeProfile(profile);
});

runConformance(async () => {
  // /scenarios/conformance.json is TEST_SCENARIO (checked by the Node runner): a fresh realm per suite.
  const tab = await commands.openTab(profile, `${origin}/?scenario=conformance`);
  return {
    async send(request) {
      const answer = await inTab(
        tab,
        async ({ url, method, headers, body }: WireRequest) => {
          const response = await fetch(url, { method, headers, body });
          return { status: response.status, headers: [...response.headers], text: await response.text() };
        },
        toWire(request),
      );
      return fromWire(answer.status, answer.headers, answer.text);
    },
    close: () => commands.closeTab(tab),
  };
});
