import { z } from 'zod';
import {
  DEFAULT_INVITE_EXPIRY_MINUTES,
  invitationFailed,
  invitesControlledBy,
  MAX_WELCOME_MESSAGE_LENGTH,
  resendInvite,
  revokeInvite,
  sendInvites,
} from '../actions/invites.ts';
import { createInviteLink, inviteLinksControlledBy, revokeInviteLink } from '../actions/invite-links.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { errorResponse } from '../http/json-response.ts';
import { bool, intList, intValue, json, pathId, str, VAR } from '../http/param-types.ts';

/** What email invitations and reusable links share. */
const inviteTargetParams = {
  invite_expires_in_minutes: json(intValue().min(1, { error: `${VAR} is too small` }).nullable()).default(DEFAULT_INVITE_EXPIRY_MINUTES),
  invite_as: json(z.literal([100, 200, 300, 400, 600], { error: `Invalid ${VAR}` })).default(400),
  group_ids: intList().default([]),
  include_realm_default_subscriptions: bool().default(false),
  welcome_message_custom_text: str().max(MAX_WELCOME_MESSAGE_LENGTH).optional(),
};

export const inviteEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/invites',
    params: {
      ...inviteTargetParams,
      invitee_emails: str(),
      stream_ids: intList(),
      notify_referrer_on_join: bool().default(true),
    },
    async write(scope, params) {
      const skipped = await sendInvites(scope, {
        inviteeEmails: params.invitee_emails,
        expiresInMinutes: params.invite_expires_in_minutes,
        inviteAs: params.invite_as,
        streamIds: params.stream_ids,
        groupIds: params.group_ids,
        includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
        notifyReferrerOnJoin: params.notify_referrer_on_join,
        welcomeMessageCustomText: params.welcome_message_custom_text,
      });
      // The skipped addresses are reported as a failure, returned rather than thrown so that
      // the other invitations are still committed.
      if (skipped.length > 0) {
        return errorResponse(invitationFailed(
          "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
          skipped,
          true,
        ));
      }
      return {};
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/invites',
    params: {},
    async read(scope) {
      // Email invitations first, then reusable links, as upstream lists them.
      return { invites: [...(await invitesControlledBy(scope)), ...(await inviteLinksControlledBy(scope))] };
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/invites/multiuse',
    params: { ...inviteTargetParams, stream_ids: intList().default([]) },
    async write(scope, params) {
      const inviteLink = await createInviteLink(scope, {
        expiresInMinutes: params.invite_expires_in_minutes,
        inviteAs: params.invite_as,
        streamIds: params.stream_ids,
        groupIds: params.group_ids,
        includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
        welcomeMessageCustomText: params.welcome_message_custom_text,
      });
      return { invite_link: inviteLink };
    },
  }),
  defineEndpoint({
    method: 'DELETE',
    path: '/invites/multiuse/{invite_id}',
    params: { invite_id: pathId() },
    async write(scope, params) {
      await revokeInviteLink(scope, params.invite_id);
      return {};
    },
  }),
  defineEndpoint({
    method: 'DELETE',
    path: '/invites/{invite_id}',
    params: { invite_id: pathId() },
    async write(scope, params) {
      await revokeInvite(scope, params.invite_id);
      return {};
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/invites/{invite_id}/resend',
    params: { invite_id: pathId() },
    async write(scope, params) {
      await resendInvite(scope, params.invite_id);
      return {};
    },
  }),
];
