/**
 * Mobile push registrations, as upstream's PushDeviceToken: APNs tokens (with the iOS app id)
 * and FCM registration ids, stored per user and kept in the realm archive (upstream lists them
 * only in its realm exports). Nothing is ever pushed: a sandbox has no APNs or FCM
 * credentials, so a test notification to a known device succeeds and goes nowhere.
 */
import { ApiError, badRequest } from '../errors/api-error.ts';
import type { CallerScope, ReadScope } from '../services/action-scope.ts';
import { PUSH_KIND_APNS, PUSH_KIND_FCM, type PushDeviceTokenRow } from '../storage/rows.ts';

export type PushKind = PushDeviceTokenRow['kind'];
export { PUSH_KIND_APNS, PUSH_KIND_FCM };

const MAX_TOKEN_LENGTH = 4096;

/**
 * Whether Python's lenient `base64.b64decode` (what upstream checks APNs tokens with) accepts
 * the text: characters outside the alphabet are skipped, and the data must end on a whole
 * quantum or be padded to one.
 */
function decodesAsBase64(text: string): boolean {
  const cleaned = text.replace(/[^A-Za-z0-9+/=]/g, '');
  const data = cleaned.replace(/=/g, '').length;
  const padding = /=*$/.exec(cleaned)![0].length;
  const rest = data % 4;
  return rest === 0 || (rest === 2 && padding >= 2) || (rest === 3 && padding >= 1);
}

/** Upstream's `validate_token`: a length check, and for APNs a token that decodes. */
function validateToken(token: string, kind: PushKind): void {
  if (token === '' || token.length > MAX_TOKEN_LENGTH) throw badRequest('Empty or invalid length token');
  if (kind === PUSH_KIND_APNS && !decodesAsBase64(token)) throw badRequest('Invalid APNS token');
}

/** POST /users/me/apns_device_token and /users/me/android_gcm_reg_id: registering again only refreshes the time. */
export async function addPushDeviceToken(
  scope: CallerScope,
  { token, kind, iosAppId }: { token: string; kind: PushKind; iosAppId: string | null },
): Promise<void> {
  validateToken(token, kind);
  const key: [number, number, string] = [scope.caller.id, kind, token];
  const existing = await scope.db.push_device_tokens.get(key);
  if (existing) await scope.db.push_device_tokens.update(key, { last_updated: scope.now });
  else await scope.db.push_device_tokens.add({ user_id: scope.caller.id, kind, token, ios_app_id: iosAppId, last_updated: scope.now });
}

/** DELETE /users/me/apns_device_token and /users/me/android_gcm_reg_id. */
export async function removePushDeviceToken(scope: CallerScope, { token, kind }: { token: string; kind: PushKind }): Promise<void> {
  validateToken(token, kind);
  const key: [number, number, string] = [scope.caller.id, kind, token];
  if (!(await scope.db.push_device_tokens.get(key))) throw badRequest('Token does not exist');
  await scope.db.push_device_tokens.delete(key);
}

/**
 * POST /mobile_push/test_notification: to the device with `token`, or to all the caller's
 * devices. A token the caller never registered is upstream's INVALID_PUSH_DEVICE_TOKEN;
 * otherwise the answer is upstream's success, with nothing sent.
 */
export async function sendTestPushNotification(scope: ReadScope, token: string | undefined): Promise<void> {
  if (token === undefined) return;
  const devices = await scope.db.push_device_tokens.where('user_id').equals(scope.caller.id).toArray();
  if (!devices.some((device) => device.token === token)) {
    throw new ApiError('Device not recognized', { code: 'INVALID_PUSH_DEVICE_TOKEN' });
  }
}
