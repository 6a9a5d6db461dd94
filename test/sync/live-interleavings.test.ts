import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import type { EventQueue } from '../../src/engine/events/event-queue.ts';
import { RETRY_MS } from '../../src/sync/replica/sync-replica.ts';
import { openQueue, type TestUser } from '../support/test-realm.ts';
import { act, expectSameAsHub, onHub, type Step, step, watchInternalErrors } from './interleaving-steps.ts';
import { SyncWorld } from './sync-fixture.ts';

// The interleavings test as a browser runs it: both replicas under their live loops, which push,
// pull and wait at the hub by themselves while the steps of a batch run side by side, the links
// going down, up or losing answers in between. Which round meets which change is up to the
// scheduler, so a failing run may not fail again with its seed; its steps show what to look at.

let world: SyncWorld | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  for (const replica of world?.replicas ?? []) await replica.replica.stop();
  world?.close();
  world = undefined;
});

async function runLive(batches: Step[][], users: readonly [TestUser, TestUser] = ['mark', 'mia']): Promise<void> {
  for (const replica of world?.replicas ?? []) await replica.replica.stop();
  world?.close();
  world = await SyncWorld.create();
  const live = world;
  const expectNoInternalError = watchInternalErrors();
  const replicas = [await live.replicaOf(users[0]), await live.replicaOf(users[1])] as const;
  for (const replica of replicas) {
    expect(await replica.replica.sync()).toBe('online');
    replica.replica.start();
  }
  // A client of each replica, and one of the hub for the same user, from the start of the run.
  const clients = replicas.map((replica) => ({ local: replica.openQueue(), hub: openQueue(live.hubEngine, replica.userId) }));
  let sent = 0;
  let hubSteps = 0;
  for (const batch of batches) {
    await Promise.all(
      batch.map(async (s) => {
        if (s.kind === 'hub') return onHub(live, s, ++hubSteps);
        const replica = replicas[s.side];
        if (s.kind === 'sync') {
          Object.assign(replica.link, { cut: s.link === 'down', loseAnswers: s.link === 'answers-lost' });
          return;
        }
        return act(replica, replicas[1 - s.side]!, s, s.kind === 'send' || s.kind === 'dm' ? ++sent : sent);
      }),
    );
    // A replica that found the hub out of reach tries again after RETRY_MS on the engines' clock.
    live.clock.advance(RETRY_MS);
  }

  for (const replica of replicas) Object.assign(replica.link, { cut: false, loseAnswers: false });
  await vi.waitFor(
    async () => {
      live.clock.advance(RETRY_MS);
      for (const replica of replicas) {
        expect(await replica.replica.status()).toBe('online');
        await expectSameAsHub(live, replica);
      }
    },
    { timeout: 20_000, interval: 50 },
  );

  expectNoInternalError();
  const hubContents = (await live.hubEngine.db.messages.toArray()).map((m) => m.content).filter((c) => /^(mark|mia)-\d+$/.test(c));
  expect(new Set(hubContents).size).toBe(hubContents.length);
  for (const [index, replica] of replicas.entries()) {
    // A client of the replica, from its events alone, ends up holding every message the user
    // received that a client of the hub was told of, and no message the hub does not have (no
    // provisional id, no ghost) unless the hub's client holds it too (a message moved where the
    // user is not subscribed, then deleted: the hub tells its deletion only to that channel's
    // readers). Not the same set: a catch-up skips what happened between, so a message received
    // and then moved away while the replica was away is channel history on arrival, of which the
    // hub tells nothing. (A resync, after a role change, closes the queue: its client registers again.)
    const { local, hub } = clients[index]!;
    if (isOpen(replica.replica.engine, local) && isOpen(live.hubEngine, hub)) {
      const [held, heldOnHub] = [heldIds(local), heldIds(hub)];
      const received = new Set((await live.hubEngine.db.user_messages.where('user_id').equals(replica.userId).toArray()).map((um) => um.message_id));
      expect(heldOnHub.filter((id) => received.has(id) && !held.includes(id))).toEqual([]);
      const onHub = new Set((await live.hubEngine.db.messages.bulkGet(held)).flatMap((message) => (message ? [message.id] : [])));
      expect(held.filter((id) => !onHub.has(id) && !heldOnHub.includes(id))).toEqual([]);
    }
    // A mutation answered twice (a lost answer offered again) got the same outcome both times.
    const outcomes = new Map<number, string>();
    for (const result of replica.link.pushResults) {
      const outcome = result.outcome === 'applied' ? 'applied' : result.error.code;
      expect(outcomes.get(result.mutation_id) ?? outcome).toBe(outcome);
      outcomes.set(result.mutation_id, outcome);
    }
    expect([...outcomes.values()]).not.toContain('SYNC_ALREADY_APPLIED');
  }
}

function isOpen(engine: Engine, queue: EventQueue): boolean {
  try {
    engine.queues.get(queue.id, queue.userId);
    return true;
  } catch {
    return false;
  }
}

/** The message ids a client believes exist, from its queue's events alone: `message` adds one, `delete_message` takes them away. */
function heldIds(queue: EventQueue): number[] {
  const ids = new Set<number>();
  for (const event of queue.events) {
    if (event.type === 'message') ids.add((event.message as { id: number }).id);
    if (event.type === 'delete_message') for (const id of (event.message_ids as number[] | undefined) ?? [event.message_id as number]) ids.delete(id);
  }
  return [...ids].sort((a, b) => a - b);
}

describe('random interleavings under the replicas\' live loops', () => {
  it('converge to the hub\'s state once the links are back, with no message sent twice', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { minLength: 3, maxLength: 10 }), (batches) => runLive(batches)),
      { seed: 20261126, numRuns: 20, endOnFailure: true },
    );
  });
});
