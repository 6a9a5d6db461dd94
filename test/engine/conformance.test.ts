import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { fromWire, toWire } from '../conformance/harness.ts';
import { runConformance } from '../conformance/run-conformance.ts';
import { createTestRealm, TEST_SCENARIO } from '../support/test-realm.ts';

// The shared request/response cases against the bare engine; test/browser/conformance.test.ts
// runs the same cases through the browser host.
runConformance(async () => {
  const realm = await createTestRealm();
  return {
    async send(request) {
      const { url, method, headers, body } = toWire(request);
      const response = await realm.engine.handle(new Request(`http://zulip.test${url}`, { method, headers, body }));
      return fromWire(response.status, response.headers, await response.text());
    },
    close: async () => realm.engine.close(),
  };
});

test('the browser runs the conformance cases on the same realm (public/scenarios/conformance.json is TEST_SCENARIO)', async () => {
  const file = JSON.parse(await readFile(new URL('../../public/scenarios/conformance.json', import.meta.url), 'utf8'));
  expect(file, 'regenerate it with JSON.stringify(TEST_SCENARIO, null, 2)').toEqual(TEST_SCENARIO);
});
