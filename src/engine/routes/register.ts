import { z } from 'zod';
import { type ClientCapabilities, NO_CAPABILITIES } from '../events/event-types.ts';
import { checkQueueNarrow } from '../events/queue-narrow.ts';
import { MAX_NARROW_TERMS } from '../narrow/narrow-parse.ts';
import { serviceVersionFields } from '../wire/feature-level.ts';
import { callerRead, defineEndpoint } from '../http/endpoint.ts';
import { bool, int, json, listOf, nonNegativeInt, stringValue, VAR } from '../http/param-types.ts';
import { alwaysPresentKeys } from '../initial-state/realm-settings.ts';
import { checkRegisterRequest } from '../initial-state/register-access.ts';
import { snapshotInitialState } from '../initial-state/state-snapshot.ts';
import type { SubscriberMode } from '../wire/subscription-wire.ts';

const eventTypeList = () => json(listOf(stringValue()).nullable());

/** `true`, `false` or `partial`, JSON-encoded as upstream reads it; a bare `partial` is accepted too. */
const includeSubscribers = () =>
  z.string().transform((raw, ctx): SubscriberMode => {
    if (raw === 'true') return 'all';
    if (raw === 'false') return 'none';
    if (raw === 'partial' || raw === '"partial"') return 'partial';
    ctx.addIssue({ code: 'custom', message: `Invalid ${VAR}` });
    return z.NEVER;
  });

/**
 * Known capabilities must be booleans; unknown ones are ignored, since newer clients declare
 * capabilities this server has never heard of.
 */
const capabilities = () =>
  json(
    z.record(z.string(), z.unknown(), { error: `${VAR} is not a dict` }).superRefine((value, ctx) => {
      for (const key of Object.keys(NO_CAPABILITIES)) {
        if (value[key] !== undefined && typeof value[key] !== 'boolean') {
          ctx.addIssue({ code: 'custom', message: `${VAR}["${key}"] is not a boolean` });
        }
      }
    }),
  );

const narrowTerms = () =>
  json(
    listOf(
      listOf(stringValue()).refine((term) => term.length === 2, { error: `Invalid ${VAR}` }),
      MAX_NARROW_TERMS,
    ),
  );

function capabilitiesFrom(declared: Record<string, unknown> | undefined): ClientCapabilities {
  const result = { ...NO_CAPABILITIES };
  for (const key of Object.keys(NO_CAPABILITIES) as (keyof ClientCapabilities)[]) {
    if (declared?.[key] === true) result[key] = true;
  }
  return result;
}

export const registerEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/register',
    auth: 'optional',
    params: {
      apply_markdown: bool().default(false),
      client_gravatar: bool().optional(),
      slim_presence: bool().default(false),
      presence_history_limit_days: int().optional(),
      include_subscribers: includeSubscribers().default('none'),
      event_types: eventTypeList().optional(),
      fetch_event_types: eventTypeList().optional(),
      all_public_streams: bool().default(false),
      client_capabilities: capabilities().optional(),
      narrow: narrowTerms().default([]),
      queue_lifespan_secs: nonNegativeInt().default(0),
    },
    async handler(ctx, params) {
      const user = ctx.maybeUser;
      await callerRead(ctx, user, async ({ directory, caller }) =>
        checkRegisterRequest(caller, directory, {
          clientGravatar: params.client_gravatar,
          includeSubscribers: params.include_subscribers,
          allPublicStreams: params.all_public_streams,
        }),
      );
      const narrow = checkQueueNarrow(params.narrow);
      const capabilities = capabilitiesFrom(params.client_capabilities);
      const eventTypes = params.event_types ?? null;
      const fetchTypes = params.fetch_event_types ?? eventTypes;
      const { engine } = ctx;

      // The queue is created synchronously right after the snapshot transaction completes:
      // any action committing later delivers its events to it, any earlier one is in the state.
      const { queueId, initial } = await snapshotInitialState(engine, {
        user,
        capabilities,
        includeSubscribers: params.include_subscribers,
        fetchTypes,
        presence: { slim: params.slim_presence, historyLimitDays: params.presence_history_limit_days },
      }).then(
        (snapshot) => {
          const queue = user
            ? engine.queues.create({
                userId: user.id,
                eventTypes: eventTypes && new Set(eventTypes),
                narrow,
                allPublicStreams: params.all_public_streams,
                applyMarkdown: params.apply_markdown,
                clientGravatar: params.client_gravatar ?? true,
                slimPresence: params.slim_presence,
                capabilities,
                lifespanSecs: params.queue_lifespan_secs,
              })
            : null;
          return { queueId: queue?.id ?? null, initial: snapshot };
        },
      );
      return {
        queue_id: queueId,
        last_event_id: -1,
        ...serviceVersionFields(),
        ...alwaysPresentKeys(ctx.realm),
        ...initial,
      };
    },
  }),
];
