import type { z } from 'zod';
import { prepareOwnSettings, updateOwnSettings } from '../actions/user-settings.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, int, intValue, json, oneOf, str, VAR } from '../http/param-types.ts';
import { EMOJISET_CHOICES, USER_SETTING_DEFAULTS } from '../settings/user-settings.ts';

/** Integer settings restricted to upstream's choices ("Invalid x" otherwise). */
const INT_CHOICES: Record<string, readonly number[]> = {
  web_mark_read_on_scroll_policy: [1, 2, 3],
  web_channel_default_view: [1, 2],
  color_scheme: [1, 2, 3],
  demote_inactive_streams: [1, 2, 3],
  user_list_style: [1, 2, 3],
  web_stream_unreads_count_display_policy: [1, 2, 3],
  desktop_icon_count_display: [1, 2, 3, 4],
  realm_name_in_email_notifications_policy: [1, 2, 3],
  automatically_follow_topics_policy: [1, 2, 3, 4],
  automatically_unmute_topics_in_muted_streams_policy: [1, 2, 3, 4],
};

/** String settings restricted to upstream's choices. */
const STRING_CHOICES: Record<string, readonly [string, ...string[]]> = {
  web_home_view: ['recent_topics', 'inbox', 'all_messages'],
  web_animate_image_previews: ['always', 'on_hover', 'never'],
  emojiset: EMOJISET_CHOICES.map((e) => e.key) as [string, ...string[]],
};

/** Each personal setting's parameter, typed after its default value unless restricted above. */
function settingParam(name: string, defaultValue: unknown): z.ZodType {
  const choices = INT_CHOICES[name];
  if (choices) return json(intValue().refine((v) => choices.includes(v), { error: `Invalid ${VAR}` })).optional();
  if (STRING_CHOICES[name]) return oneOf(STRING_CHOICES[name]).optional();
  if (typeof defaultValue === 'boolean') return bool().optional();
  if (typeof defaultValue === 'number') return int().optional();
  return str().optional();
}

/** Every personal setting's parameter, as PATCH /settings reads it. */
export const SETTING_PARAMS: Record<string, z.ZodType> = Object.fromEntries(
  Object.entries(USER_SETTING_DEFAULTS).map(([name, value]) => [name, settingParam(name, value)]),
);

/** PATCH /settings: the caller's own name, email, password, time zone and personal settings. */
export const settingsEndpoints = [
  defineEndpoint({
    method: 'PATCH',
    path: '/settings',
    // Upstream's `human_users_only`.
    auth: 'human',
    params: {
      full_name: str().optional(),
      email: str().optional(),
      old_password: str().optional(),
      new_password: str().optional(),
      timezone: str().optional(),
      ...SETTING_PARAMS,
    },
    async prepare(ctx, params) {
      const values = params as Record<string, unknown>;
      const changes = {
        fullName: params.full_name,
        email: params.email,
        timezone: params.timezone,
        settings: Object.fromEntries(Object.keys(SETTING_PARAMS).filter((k) => values[k] !== undefined).map((k) => [k, values[k]])),
      };
      const password = { old: params.old_password, new: params.new_password };
      return prepareOwnSettings(ctx.user, changes, password, ctx.engine.passwordIterations, ctx.engine.loginLimits);
    },
    async write(scope, _params, changes) {
      await updateOwnSettings(scope, changes);
      return {};
    },
  }),
];
