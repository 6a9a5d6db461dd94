import { afterEach, beforeEach, expect, it } from 'vitest';
import type { InitialState, ServerEvent } from '../../src/chat/api/wire-types.ts';
import { RealmState } from '../../src/chat/state/realm-state.ts';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

// The app's realm state fed by a real engine's /register and /events, as the app registers
// (without the archived_channels capability).
let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

async function registeredState(): Promise<{ state: RealmState; applyNewEvents(): Promise<ServerEvent[]> }> {
  const initial = (await realm.as('mark').post('/register', { client_capabilities: { user_settings_object: true, empty_topic_name: true } })).body;
  const state = new RealmState(initial as InitialState);
  let lastEventId = -1;
  return {
    state,
    async applyNewEvents() {
      const { events } = (await realm.as('mark').get('/events', { queue_id: initial.queue_id, last_event_id: lastEventId, dont_block: true })).body;
      for (const event of events as ServerEvent[]) state.applyEvent(event);
      lastEventId = Math.max(lastEventId, ...events.map((event: ServerEvent) => event.id as number));
      return events;
    },
  };
}

it('keeps an archived channel, marked archived, and drops a channel the user can no longer see', async () => {
  const { state, applyNewEvents } = await registeredState();
  expect(state.channels.value.get(IDS.secret)?.name).toBe('secret');
  await realm.as('olivia').delete(`/streams/${IDS.design}`);
  await realm.as('olivia').delete('/users/me/subscriptions', { subscriptions: ['secret'], principals: [IDS.mark] });
  const deletes = (await applyNewEvents()).filter((event) => event.type === 'stream' && event.op === 'delete');
  expect(deletes.map((event) => event.stream_ids)).toEqual([[IDS.design], [IDS.secret]]);
  expect(state.channels.value.get(IDS.design)).toMatchObject({ name: 'design', is_archived: true });
  expect(state.channels.value.has(IDS.secret)).toBe(false);
});

it('knows whom the user muted from /register and muted_users events, and shows no one muted as typing', async () => {
  await realm.as('mark').post(`/users/me/muted_users/${IDS.olivia}`);
  const { state, applyNewEvents } = await registeredState();
  expect([...state.mutedUsers.value]).toEqual([IDS.olivia]);
  expect(state.conversationName({ userIds: [IDS.adam, IDS.olivia] })).toBe('Adam Admin, Muted user');
  expect(state.isMutedDm([IDS.olivia])).toBe(true);
  expect(state.isMutedDm([IDS.olivia, IDS.adam])).toBe(false);

  await realm.as('olivia').post('/typing', { type: 'direct', to: [IDS.mark], op: 'start' });
  await realm.as('adam').post('/typing', { type: 'direct', to: [IDS.mark], op: 'start' });
  await realm.as('mark').delete(`/users/me/muted_users/${IDS.olivia}`);
  await applyNewEvents();
  expect(state.typing.value.map((entry) => entry.userId)).toEqual([IDS.adam]);
  expect(state.mutedUsers.value.size).toBe(0);
});
