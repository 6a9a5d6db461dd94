import { expect, test } from 'vitest';
import { ALL_ENDPOINTS } from '../../src/engine/routes/index.ts';
import { fuzzRoutes, summarize } from './support/route-fuzzer.ts';

/**
 * Every route of the router's own table, fuzzed as every role with values read from its
 * parameter schemas. The seed is fixed so a CI failure replays; time is recorded, never
 * asserted (a busy machine is slow, not wrong): the slowest requests are in the failure summary.
 */
const FUZZ_RUNS_PER_ENDPOINT = 40;
const FUZZ_SEED = 20_260_101;

test('every route answers fuzzed requests from every role with a JSON envelope, no 5xx, and refusals that change nothing', async () => {
  const report = await fuzzRoutes(ALL_ENDPOINTS, { numRuns: FUZZ_RUNS_PER_ENDPOINT, seed: FUZZ_SEED });
  const summary = summarize(report);
  if (process.env.HOSTILE_SUMMARY) {
    const unreached = ALL_ENDPOINTS.map((e) => `${e.method} ${e.path}`).filter((key) => !report.endpointsReached.has(key));
    console.log(`${summary}\nnever answered a success: ${unreached.join(', ')}`);
  }
  expect(report.requests, summary).toBe(ALL_ENDPOINTS.length * FUZZ_RUNS_PER_ENDPOINT);
  expect(report.problems, summary).toEqual([]);
}, 180_000);
