import type { Subscription } from '../api/wire-types.ts';
import type { ChatSession } from '../state/session.ts';
import { attempt } from './notices.ts';

/** One of my settings for a channel I am subscribed to (color, muted, pinned, notifications); the change comes back as an event. */
export function setSubscriptionProperty(session: ChatSession, sub: Subscription, property: string, value: unknown): Promise<boolean> {
  return attempt(`Could not change #${sub.name}`, () =>
    session.api.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: sub.stream_id, property, value }] }),
  );
}

export function unsubscribe(session: ChatSession, name: string): Promise<boolean> {
  return attempt('Could not unsubscribe', () => session.api.delete('/users/me/subscriptions', { subscriptions: [name] }));
}
