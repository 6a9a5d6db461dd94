import { expect, onTestFinished, test, vi } from 'vitest';
import { defineEndpoint } from '../../src/engine/http/endpoint.ts';
import { str } from '../../src/engine/http/param-types.ts';
import { ApiError } from '../../src/engine/errors/api-error.ts';
import { fuzzRoutes } from './support/route-fuzzer.ts';

/** Endpoints broken on purpose, one way each, to show the fuzzer sees every kind of fault. */
const BROKEN = [
  defineEndpoint({
    method: 'GET',
    path: '/broken/crash',
    auth: 'none',
    params: { name: str().optional() },
    handler: async () => {
      throw new Error('an unexpected fault');
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/broken/envelope',
    auth: 'none',
    params: {},
    handler: async () => new Response('refused, but not as JSON', { status: 400 }),
  }),
  defineEndpoint({
    method: 'POST',
    path: '/broken/half-written',
    auth: 'none',
    params: {},
    handler: async (ctx) => {
      await ctx.engine.db.counters.put({ name: 'half-written', next: Math.random() });
      throw new ApiError('refused after writing');
    },
  }),
];

test('the route fuzzer reports a 5xx, a refusal that is not JSON and a refusal that wrote', async () => {
  // The engine logs the unexpected fault of each 5xx.
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  onTestFinished(() => logged.mockRestore());
  const report = await fuzzRoutes(BROKEN, { numRuns: 5, seed: 1, extraRoutes: BROKEN });
  expect(report.requests).toBe(15);
  expect(report.serverErrors).toBe(5);
  expect(report.refusalsThatChangedState).toBe(5);
  expect(report.problems.filter((problem) => problem.startsWith('status 400 without a JSON body'))).toHaveLength(5);
  expect(logged).toHaveBeenCalledTimes(5);
});
