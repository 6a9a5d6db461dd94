import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../../src/engine/routes/index.ts';
import { envelopeProblem } from '../hostile/support/envelope.ts';
import { ROLE_USERS, rawToRequest } from '../hostile/support/role-realm.ts';
import { describe as describeRequest, requestArbitrary, toRawRequest } from '../hostile/support/route-fuzzer.ts';
import type { TestUser } from '../support/test-realm.ts';
import { watchInternalErrors } from './interleaving-steps.ts';
import { SyncWorld, userRow } from './sync-fixture.ts';

// The route fuzzer's requests (test/hostile) sent to a replica instead of a plain engine: every
// route, as every role (only the replica's own user is let in), with the hub sometimes out of
// reach. A replica runs some locally and queues them, forwards others, answers the rest itself;
// none may fail inside, and afterwards it must still sync.

let world: SyncWorld | undefined;
afterEach(() => world?.close());

/** Leaving the realm ends the replica's sync for good (as it ends its user's every client): not fuzzed here. */
const ENDPOINTS = ALL_ENDPOINTS.filter((endpoint) => !(endpoint.method === 'DELETE' && endpoint.path === '/users/me'));

const RUNS_PER_ENDPOINT = 4;

async function fuzzReplicaOf(user: TestUser, seed: number): Promise<string[]> {
  world = await SyncWorld.create();
  const replica = await world.replicaOf(user);
  expect(await replica.replica.sync()).toBe('online');
  const expectNoInternalError = watchInternalErrors();
  const problems: string[] = [];
  for (const [index, endpoint] of ENDPOINTS.entries()) {
    const property = fc.asyncProperty(requestArbitrary(endpoint), fc.boolean(), async (parts, cut) => {
      const raw = toRawRequest(endpoint, parts);
      replica.link.cut = cut;
      const response = await replica.replica.handle(rawToRequest(raw, 'http://local.test', (role) => {
        const row = userRow(ROLE_USERS[role]);
        return { email: row.email, apiKey: row.api_key };
      }));
      const unreachable = response.status === 503 && (await response.clone().json()).code === 'SYNC_HUB_UNREACHABLE';
      const problem = unreachable ? undefined : await envelopeProblem(response);
      if (problem) problems.push(`${problem}\n    from ${describeRequest(raw)} (hub ${cut ? 'cut off' : 'reachable'})`);
    });
    await fc.assert(property, { numRuns: RUNS_PER_ENDPOINT, seed: seed + index });
  }
  replica.link.cut = false;
  for (let round = 0; round < 2; round++) expect(await replica.replica.sync()).toBe('online');
  expect(await replica.replica.engine.db.sync_outbox.count()).toBe(0);
  expectNoInternalError();
  return problems;
}

describe('a replica under the route fuzzer', () => {
  it("answers a member's replica's fuzzed requests with a JSON envelope and no 5xx but the hub's absence, then syncs", { timeout: 300_000 }, async () => {
    expect(await fuzzReplicaOf('mark', 20261126)).toEqual([]);
  });

  it("does the same for an owner's replica, whose writes the hub mostly allows", { timeout: 300_000 }, async () => {
    expect(await fuzzReplicaOf('olivia', 20261127)).toEqual([]);
  });
});
