import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import type { TestUser } from '../support/test-realm.ts';
import { watchInternalErrors } from './interleaving-steps.ts';
import { SyncWorld } from './sync-fixture.ts';

// A tampered replica's pushes, fuzzed: well-formed bodies (the schema's refusals are
// hub-protocol.test.ts's) whose mutations name any route, message, provisional id and parameter.
// The hub must answer every mutation with an outcome, in order, and never fail inside.

let world: SyncWorld | undefined;
afterEach(() => world?.close());

const messageId = fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: PROVISIONAL_ID_BASE, max: PROVISIONAL_ID_BASE + 4 }), fc.constant(2 ** 53), fc.constant(0));
const path = fc.oneof(
  fc.constantFrom('/messages', '/messages/flags', '/messages/flags/narrow', '/mark_all_as_read', '/mark_topic_as_read', '/mark_stream_as_read', '/user_topics', '/users/me/subscriptions', '/users/me/subscriptions/properties', '/users/me/subscriptions/muted_topics', '/drafts', '/users/me/status'),
  messageId.map((id) => `/messages/${id}`),
  messageId.map((id) => `/messages/${id}/reactions`),
  fc.string({ maxLength: 30 }).map((tail) => `/${tail}`),
);
const value = fc.oneof(
  fc.constantFrom('', 'general', 'design', 'secret', 'run', '😀'.repeat(40), 'true', 'false', '0', '-1', '1e400', 'null', '[]', '{}', 'change_all', 'change_later', 'add', 'remove', 'read', 'starred', 'smile', 'stream', 'direct', '[{"name":"general"}]', '[{"name":"new-one"}]', '[{"stream_id":1,"property":"pin_to_top","value":true}]', '[{"operator":"channel","operand":"general"}]', 'newest', '\u0000', '\ud83d'),
  messageId.map((id) => `[${id}]`),
  messageId.map(String),
  fc.string({ maxLength: 80 }),
);
const params = fc.dictionary(
  fc.constantFrom('type', 'to', 'topic', 'subject', 'content', 'stream_id', 'propagate_mode', 'emoji_name', 'emoji_code', 'reaction_type', 'messages', 'op', 'flag', 'anchor', 'num_before', 'num_after', 'narrow', 'subscriptions', 'principals', 'subscription_data', 'visibility_policy', 'topic_name', 'read_by_sender', 'status_text'),
  value,
  { maxKeys: 6 },
);
const provisionalId = fc.integer({ min: PROVISIONAL_ID_BASE, max: PROVISIONAL_ID_BASE + 4 });
const anyMutation = fc.record({ method: fc.constantFrom('POST', 'PATCH', 'DELETE'), path, params, provisional_id: provisionalId }, { requiredKeys: ['method', 'path', 'params'] });
const channel = fc.constantFrom('general', 'design', 'secret');
/** What a replica would push, its ids and names drawn from a few, so most apply and later ones name earlier sends. */
const likelyMutation = fc.oneof(
  fc.record({ method: fc.constant('POST'), path: fc.constant('/messages'), params: fc.record({ type: fc.constant('stream'), to: channel, topic: fc.constantFrom('run', '😀'.repeat(40)), content: fc.string({ minLength: 1, maxLength: 20 }) }), provisional_id: provisionalId }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/messages'), params: fc.record({ type: fc.constant('direct'), to: fc.constantFrom('[8]', '[9]', '[10]', '[11]', '[12]'), content: fc.constant('dm') }), provisional_id: provisionalId }),
  fc.record({ method: fc.constant('PATCH'), path: messageId.map((id) => `/messages/${id}`), params: fc.oneof(fc.record({ content: fc.constant('edited') }), fc.record({ topic: fc.constantFrom('moved', '✔ run'), propagate_mode: fc.constantFrom('change_one', 'change_later', 'change_all') }), fc.record({ stream_id: fc.constantFrom('1', '2', '3') })) }),
  fc.record({ method: fc.constant('DELETE'), path: messageId.map((id) => `/messages/${id}`), params: fc.constant({}) }),
  fc.record({ method: fc.constantFrom('POST', 'DELETE'), path: messageId.map((id) => `/messages/${id}/reactions`), params: fc.record({ emoji_name: fc.constantFrom('smile', 'octopus') }) }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/messages/flags'), params: fc.record({ messages: messageId.map((id) => `[${id}]`), op: fc.constantFrom('add', 'remove'), flag: fc.constantFrom('read', 'starred') }) }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/users/me/subscriptions'), params: channel.map((name) => ({ subscriptions: JSON.stringify([{ name }]) })) }),
  fc.record({ method: fc.constant('DELETE'), path: fc.constant('/users/me/subscriptions'), params: channel.map((name) => ({ subscriptions: JSON.stringify([name]) })) }),
);
const mutation = fc.oneof(anyMutation, likelyMutation);
/** Pushes of one client: each a batch, numbered on from where the last left, some offered again. */
const pushes = fc.array(fc.record({ mutations: fc.array(mutation, { minLength: 1, maxLength: 6 }), again: fc.boolean() }), { minLength: 1, maxLength: 5 });

async function identity(user: TestUser) {
  const { body } = await world!.peerCall(user, 'GET', '/snapshot');
  return { hub_id: body.hub_id as string, epoch: body.epoch as string };
}

describe('a tampered replica\'s pushes', () => {
  it('get an outcome for every mutation, in order, and never an internal error', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<TestUser>('mia', 'mark', 'olivia'), pushes, async (user, batches) => {
        await world?.close();
        world = await SyncWorld.create();
        const expectNoInternalError = watchInternalErrors();
        const head = { ...(await identity(user)), client_id: 'fuzzed-client-0001' };
        let next = 1;
        for (const batch of batches) {
          const mutations = batch.mutations.map((m) => ({ ...m, mutation_id: next++ }));
          let first: unknown;
          for (let round = 0; round < (batch.again ? 2 : 1); round++) {
            const pushed = await world.peerCall(user, 'POST', '/push', { ...head, mutations });
            // Offered again (its answer lost): the recorded results, nothing run twice.
            if (round === 1) expect(pushed.body.results).toEqual(first);
            first = pushed.body.results;
            expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
            expect(pushed.body.results.map((r: { mutation_id: number }) => r.mutation_id)).toEqual(mutations.map((m) => m.mutation_id));
            for (const result of pushed.body.results) {
              expect(['applied', 'refused']).toContain(result.outcome);
              if (result.outcome === 'refused') expect(result.status, JSON.stringify(result)).toBeLessThan(500);
            }
          }
        }
        expectNoInternalError();
      }),
      { seed: 20261126, numRuns: 40, endOnFailure: true },
    );
  });
});
