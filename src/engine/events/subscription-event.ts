import { type NotificationDefaults, NOTIFICATION_PROPERTIES } from '../wire/subscription-wire.ts';
import type { EventQueue } from './event-queue.ts';
import type { EngineEvent } from './event-types.ts';

/**
 * A `subscription` `add` event carries the subscriber's own `notification_defaults` for
 * delivery only: clients with `notification_settings_null` get null ("inherit") settings as
 * stored; the others cannot read null, so they get the user's defaults in their place, as
 * upstream sends them. The helper field never reaches a client.
 */
export function finalizeSubscriptionEvent(event: EngineEvent, queue: EventQueue): EngineEvent[] {
  const { notification_defaults: defaults, ...rest } = event as EngineEvent & { notification_defaults?: NotificationDefaults };
  if (rest.op !== 'add' || !defaults || queue.capabilities.notification_settings_null) return [rest];
  const subscriptions = (rest.subscriptions as Record<string, unknown>[]).map((sub) => {
    const shaped = { ...sub };
    for (const property of NOTIFICATION_PROPERTIES) {
      if (shaped[property] === null) shaped[property] = defaults[property];
    }
    return shaped;
  });
  return [{ ...rest, subscriptions }];
}
