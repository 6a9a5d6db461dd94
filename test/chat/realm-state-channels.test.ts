import { afterEach, beforeEach, expect, it } from 'vitest';
import { registeredAppState } from '../support/registered-app-state.ts';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

// The app's realm state fed by a real engine's /register and /events, as the app registers
// (without the archived_channels capability).
let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const registeredState = () => registeredAppState(realm, 'mark');

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
