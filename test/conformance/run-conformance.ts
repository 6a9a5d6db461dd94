import { afterAll, beforeAll, describe } from 'vitest';
import { CONFORMANCE_SUITES } from './all-cases.ts';
import { harnessOver, type SendToHost } from './harness.ts';

/** A host loaded with a fresh realm of TEST_SCENARIO. */
export interface ConformanceHost {
  send: SendToHost;
  close(): Promise<void>;
}

/** Registers every conformance suite against `openRealm`, one fresh realm per suite. */
export function runConformance(openRealm: () => Promise<ConformanceHost>): void {
  for (const suite of CONFORMANCE_SUITES) {
    describe(suite.title, () => {
      let host: ConformanceHost | undefined;
      beforeAll(async () => {
        host = await openRealm();
      });
      afterAll(async () => {
        await host?.close();
      });
      suite.define(
        harnessOver((request) => {
          if (!host) throw new Error('the realm for this suite failed to open');
          return host.send(request);
        }),
      );
    });
  }
}
