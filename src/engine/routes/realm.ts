import { z } from 'zod';
import { MAX_REALM_DESCRIPTION_LENGTH, MAX_REALM_NAME_LENGTH, REALM_GROUP_SETTINGS, REALM_TIME_LIMITS, updateRealm } from '../actions/realm-settings.ts';
import { updateRealmUserDefaults } from '../actions/realm-user-defaults.ts';
import { addDefaultChannel, removeDefaultChannel } from '../actions/default-channels.ts';
import { addRealmPlayground, MAX_PYGMENTS_LANGUAGE_LENGTH, PYGMENTS_LANGUAGE_PARAM, removeRealmPlayground } from '../actions/realm-playgrounds.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { SETTING_PARAMS } from './settings.ts';
import { bool, int, json, pathId, str, VAR } from '../http/param-types.ts';
import { retentionParam, topicsPolicyParam } from './channel-params.ts';
import { groupSettingUpdate } from './group-setting-params.ts';

const REALM_TOPICS_POLICIES = ['allow_empty_topic', 'disable_empty_topic'] as const;

const timeLimitParams = Object.fromEntries(REALM_TIME_LIMITS.map((name) => [name, retentionParam().optional()])) as Record<
  (typeof REALM_TIME_LIMITS)[number],
  z.ZodOptional<ReturnType<typeof retentionParam>>
>;
const groupSettingParams = Object.fromEntries(Object.keys(REALM_GROUP_SETTINGS).map((name) => [name, json(groupSettingUpdate()).optional()])) as Record<
  keyof typeof REALM_GROUP_SETTINGS,
  z.ZodOptional<ReturnType<typeof json<ReturnType<typeof groupSettingUpdate>>>>
>;

/**
 * PATCH /realm: the organization settings this server stores and acts on. Upstream's other
 * parameters (invitation, email and authentication policies, ...) configure what a sandbox
 * does not have; they are reported in `ignored_parameters_unsupported` rather than pretended.
 */
export const realmEndpoints = [
  defineEndpoint({
    method: 'PATCH',
    path: '/realm',
    auth: 'admin',
    params: {
      name: str().max(MAX_REALM_NAME_LENGTH).optional(),
      description: str().max(MAX_REALM_DESCRIPTION_LENGTH).optional(),
      allow_message_editing: bool().optional(),
      allow_edit_history: bool().optional(),
      enable_spectator_access: bool().optional(),
      enable_read_receipts: bool().optional(),
      // Upstream before feature level 392: the boolean form of topics_policy.
      mandatory_topics: bool().optional(),
      topics_policy: topicsPolicyParam().pipe(z.enum(REALM_TOPICS_POLICIES, { error: `Invalid ${VAR}` })).optional(),
      message_retention_days: retentionParam().optional(),
      new_stream_announcements_stream_id: int().optional(),
      default_code_block_language: str().max(MAX_PYGMENTS_LANGUAGE_LENGTH).optional(),
      ...timeLimitParams,
      ...groupSettingParams,
    },
    async write(scope, params) {
      const legacyPolicy = params.mandatory_topics === undefined ? undefined : params.mandatory_topics ? 'disable_empty_topic' : 'allow_empty_topic';
      return updateRealm(scope, {
        name: params.name,
        description: params.description,
        allowMessageEditing: params.allow_message_editing,
        allowEditHistory: params.allow_edit_history,
        enableSpectatorAccess: params.enable_spectator_access,
        enableReadReceipts: params.enable_read_receipts,
        topicsPolicy: params.topics_policy ?? legacyPolicy,
        messageRetentionDays: params.message_retention_days,
        newStreamAnnouncementsStreamId: params.new_stream_announcements_stream_id,
        defaultCodeBlockLanguage: params.default_code_block_language,
        timeLimits: Object.fromEntries(REALM_TIME_LIMITS.filter((name) => params[name] !== undefined).map((name) => [name, params[name]])),
        groupSettings: Object.fromEntries(
          (Object.keys(REALM_GROUP_SETTINGS) as (keyof typeof REALM_GROUP_SETTINGS)[]).filter((name) => params[name] !== undefined).map((name) => [name, params[name]]),
        ),
      });
    },
  }),
];

/**
 * The personal settings upstream lets an organization default: not the language, nor the
 * security and marketing emails (upstream's choice), nor email visibility, which this server
 * keeps realm-wide (spec 2.2) so a default for new accounts alone cannot be honoured; those are
 * reported in `ignored_parameters_unsupported`.
 */
const NOT_DEFAULTABLE = new Set(['default_language', 'enable_login_emails', 'enable_marketing_emails', 'allow_private_data_export', 'hide_ai_features']);
const DEFAULTABLE_PARAMS = Object.fromEntries(Object.entries(SETTING_PARAMS).filter(([name]) => !NOT_DEFAULTABLE.has(name)));

export const realmUserDefaultsEndpoints = [
  defineEndpoint({
    method: 'PATCH',
    path: '/realm/user_settings_defaults',
    auth: 'admin',
    params: DEFAULTABLE_PARAMS,
    async write(scope, params) {
      const values = params as Record<string, unknown>;
      await updateRealmUserDefaults(scope, Object.fromEntries(Object.keys(DEFAULTABLE_PARAMS).filter((k) => values[k] !== undefined).map((k) => [k, values[k]])));
      return {};
    },
  }),
];

/** The channels new users join (upstream's `check_if_user_can_manage_default_streams`: administrators). */
export const defaultChannelEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/default_streams',
    auth: 'admin',
    params: { stream_id: int() },
    async write(scope, params) {
      await addDefaultChannel(scope, params.stream_id);
      return {};
    },
  }),
  defineEndpoint({
    method: 'DELETE',
    path: '/default_streams',
    auth: 'admin',
    params: { stream_id: int() },
    async write(scope, params) {
      await removeDefaultChannel(scope, params.stream_id);
      return {};
    },
  }),
];

/** Code playgrounds: administrators add and remove them; everyone reads them in register. */
export const playgroundEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/realm/playgrounds',
    auth: 'admin',
    params: {
      name: str(),
      pygments_language: str()
        .max(MAX_PYGMENTS_LANGUAGE_LENGTH)
        .refine((language) => PYGMENTS_LANGUAGE_PARAM.test(language), { error: 'Invalid characters in pygments language' }),
      url_template: str(),
    },
    async write(scope, params) {
      return { id: await addRealmPlayground(scope, { name: params.name, pygmentsLanguage: params.pygments_language, urlTemplate: params.url_template }) };
    },
  }),
  defineEndpoint({
    method: 'DELETE',
    path: '/realm/playgrounds/{playground_id}',
    auth: 'admin',
    params: { playground_id: pathId() },
    async write(scope, params) {
      await removeRealmPlayground(scope, params.playground_id);
      return {};
    },
  }),
];
