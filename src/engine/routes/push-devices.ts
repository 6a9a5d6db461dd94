import {
  addPushDeviceToken,
  PUSH_KIND_APNS,
  PUSH_KIND_FCM,
  removePushDeviceToken,
  sendTestPushNotification,
} from '../actions/push-devices.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { str, VAR } from '../http/param-types.ts';

/** Upstream's ApnsAppId: letters, digits, dots and dashes. */
const appId = () => str().regex(/^[.a-zA-Z0-9-]+$/, { error: `${VAR} has invalid format` });

export const pushDeviceEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/users/me/apns_device_token',
    auth: 'human',
    params: { token: str(), appid: appId() },
    async write(scope, params) {
      await addPushDeviceToken(scope, { token: params.token, kind: PUSH_KIND_APNS, iosAppId: params.appid });
      return {};
    },
  }),
  defineEndpoint({
    method: 'DELETE',
    path: '/users/me/apns_device_token',
    auth: 'human',
    params: { token: str() },
    async write(scope, params) {
      await removePushDeviceToken(scope, { token: params.token, kind: PUSH_KIND_APNS });
      return {};
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/users/me/android_gcm_reg_id',
    auth: 'human',
    params: { token: str() },
    async write(scope, params) {
      await addPushDeviceToken(scope, { token: params.token, kind: PUSH_KIND_FCM, iosAppId: null });
      return {};
    },
  }),
  defineEndpoint({
    method: 'DELETE',
    path: '/users/me/android_gcm_reg_id',
    auth: 'human',
    params: { token: str() },
    async write(scope, params) {
      await removePushDeviceToken(scope, { token: params.token, kind: PUSH_KIND_FCM });
      return {};
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/mobile_push/test_notification',
    auth: 'human',
    params: { token: str().optional() },
    async read(scope, params) {
      await sendTestPushNotification(scope, params.token);
      return {};
    },
  }),
];
