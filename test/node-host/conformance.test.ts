import { fromWire, toWire } from '../conformance/harness.ts';
import { runConformance } from '../conformance/run-conformance.ts';
import { createNodeServer } from '../../src/hosts/node-http.ts';
import { createTestRealm } from '../support/test-realm.ts';

// The shared request/response cases through the Node HTTP host, over real sockets: what a client of
// `npm run serve` sends and reads, byte for byte.
runConformance(async () => {
  const realm = await createTestRealm();
  const server = await createNodeServer(realm.engine, { port: 0 });
  return {
    async send(request) {
      const { url, method, headers, body } = toWire(request);
      const response = await fetch(`${server.url}${url}`, { method, headers, body });
      return fromWire(response.status, response.headers, await response.text());
    },
    async close() {
      await server.close();
      realm.engine.close();
    },
  };
});
