import { Dexie } from 'dexie';
import { deliverDueMessage, markDeliveryFailed } from '../actions/deliver-scheduled.ts';
import { ApiError } from '../errors/api-error.ts';
import type { EngineServices } from '../services/engine-services.ts';
import { runAction } from '../services/run-action.ts';

/**
 * Delivers the due scheduled message `id` as its author would send it now: the send's checks
 * run again, since permissions may have changed since it was scheduled. When they refuse, the
 * attempt is rolled back and the row is marked failed with the refusal as its reason.
 */
export async function deliverScheduledMessage(engine: EngineServices, id: number): Promise<void> {
  try {
    await runAction(engine, (scope) => deliverDueMessage(scope, id));
  } catch (error) {
    // The engine closing under a delivery is not the message's fault: it is retried on the next start.
    if (error instanceof Dexie.DatabaseClosedError) throw error;
    if (!(error instanceof ApiError)) console.error('offline-realm: scheduled message delivery failed', error);
    const reason = error instanceof ApiError ? error.message : 'Internal server error';
    await runAction(engine, (scope) => markDeliveryFailed(scope, id, reason, true));
  }
}

