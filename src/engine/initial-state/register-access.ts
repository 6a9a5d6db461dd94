import { badRequest, unauthorized } from '../errors/api-error.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { spectatorsAdmitted } from '../permissions/realm-channel-settings.ts';
import type { SubscriberMode } from '../wire/subscription-wire.ts';
import { ROLE_GUEST, type UserRow } from '../storage/rows.ts';

/**
 * What a /register caller may ask for: spectators (`user` null) only where the realm admits
 * them (else upstream's 401: the answer would list every user), only public data, with nothing
 * computed per user; guests not every public channel's events.
 */
export function checkRegisterRequest(
  user: UserRow | null,
  directory: RealmDirectory,
  request: { clientGravatar: boolean | undefined; includeSubscribers: SubscriberMode; allPublicStreams: boolean },
): void {
  if (!user) {
    if (!spectatorsAdmitted(directory)) throw unauthorized('Not logged in: API authentication or user session required');
    if (request.clientGravatar === true) throw badRequest("Invalid 'client_gravatar' parameter for anonymous request");
    if (request.includeSubscribers === 'all') throw badRequest("Invalid 'include_subscribers' parameter for anonymous request");
  } else if (request.allPublicStreams && user.role === ROLE_GUEST) {
    throw badRequest('User not authorized for this query');
  }
}
