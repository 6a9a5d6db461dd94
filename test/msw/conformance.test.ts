import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';
import { fromWire, toWire } from '../conformance/harness.ts';
import { runConformance } from '../conformance/run-conformance.ts';
import { handlersFor } from '../../src/hosts/msw.ts';
import { createTestRealm } from '../support/test-realm.ts';

// The shared request/response cases through msw/node, as another project's tests would reach the
// engine: a plain `fetch` to any origin, answered by `handlersFor(engine)`.
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

runConformance(async () => {
  const realm = await createTestRealm();
  // Suites run one after another, so each swaps in the handlers of its own fresh realm.
  server.resetHandlers(...handlersFor(realm.engine));
  return {
    async send(request) {
      const { url, method, headers, body } = toWire(request);
      const response = await fetch(`https://chat.example.com${url}`, { method, headers, body });
      return fromWire(response.status, response.headers, await response.text());
    },
    async close() {
      server.resetHandlers();
      realm.engine.close();
    },
  };
});
