import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { fromWire, toWire } from '../conformance/harness.ts';
import { checkAgainstOpenApi, openApiTally } from '../conformance/openapi-check.ts';
import { KNOWN_DIFFERENCES } from '../conformance/openapi-differences.ts';
import { runConformance } from '../conformance/run-conformance.ts';
import { createTestRealm, TEST_SCENARIO } from '../support/test-realm.ts';

// The shared request/response cases against the bare engine; test/browser/conformance.test.ts
// runs the same cases through the browser host. Here every answer is also checked against
// upstream's OpenAPI schema (the other hosts give the same answers).
runConformance(async () => {
  const realm = await createTestRealm();
  return {
    async send(request) {
      const { url, method, headers, body } = toWire(request);
      const response = await realm.engine.handle(new Request(`http://zulip.test${url}`, { method, headers, body }));
      const answer = fromWire(response.status, response.headers, await response.text());
      checkAgainstOpenApi(request, answer);
      return answer;
    },
    close: async () => realm.engine.close(),
  };
});

test('the browser runs the conformance cases on the same realm (public/scenarios/conformance.json is TEST_SCENARIO)', async () => {
  const file = JSON.parse(await readFile(new URL('../../public/scenarios/conformance.json', import.meta.url), 'utf8'));
  expect(file, 'regenerate it with JSON.stringify(TEST_SCENARIO, null, 2)').toEqual(TEST_SCENARIO);
});

test('every known difference from upstream OpenAPI was needed by some answer, and most answers were checked', () => {
  const unused = KNOWN_DIFFERENCES.filter((_, index) => !openApiTally.differencesSeen.has(index)).map((d) => d.reason);
  expect(unused).toEqual([]);
  expect(openApiTally.validated).toBeGreaterThan(3 * openApiTally.undocumented);
});
