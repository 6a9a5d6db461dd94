import { badRequest } from '../errors/api-error.ts';
import type { SubscriberMode } from '../wire/subscription-wire.ts';
import { ROLE_GUEST, type UserRow } from '../storage/rows.ts';

/**
 * What a /register caller may ask for: spectators (`user` null) only public data, with nothing
 * computed per user; guests not every public channel's events.
 */
export function checkRegisterRequest(
  user: UserRow | null,
  request: { clientGravatar: boolean | undefined; includeSubscribers: SubscriberMode; allPublicStreams: boolean },
): void {
  if (!user) {
    if (request.clientGravatar === true) throw badRequest("Invalid 'client_gravatar' parameter for anonymous request");
    if (request.includeSubscribers === 'all') throw badRequest("Invalid 'include_subscribers' parameter for anonymous request");
  } else if (request.allPublicStreams && user.role === ROLE_GUEST) {
    throw badRequest('User not authorized for this query');
  }
}
