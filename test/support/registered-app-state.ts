import type { InitialState, ServerEvent } from '../../src/chat/api/wire-types.ts';
import { RealmState } from '../../src/chat/state/realm-state.ts';
import type { TestRealm, TestUser } from './test-realm.ts';

/**
 * The chat app's realm state for `user`, fed by a real engine's `/register` (registered as the
 * app registers) and, on each `applyNewEvents()`, the events queued since.
 */
export async function registeredAppState(realm: TestRealm, user: TestUser): Promise<{ state: RealmState; applyNewEvents(): Promise<ServerEvent[]> }> {
  const initial = (await realm.as(user).post('/register', { client_capabilities: { user_settings_object: true, empty_topic_name: true } })).body;
  const state = new RealmState(initial as InitialState);
  let lastEventId = -1;
  return {
    state,
    async applyNewEvents() {
      const { events } = (await realm.as(user).get('/events', { queue_id: initial.queue_id, last_event_id: lastEventId, dont_block: true })).body;
      for (const event of events as ServerEvent[]) state.applyEvent(event);
      lastEventId = Math.max(lastEventId, ...events.map((event: ServerEvent) => event.id as number));
      return events;
    },
  };
}
