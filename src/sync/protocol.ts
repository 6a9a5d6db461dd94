import { z } from 'zod';
import type { ChannelRow, JournaledNotice, MessageRow, ReactionRow, RecipientRow, SubscriptionRow, UserMessageRow, UserRow, UserTopicRow } from '../engine/storage/rows.ts';
import type { RefreshedTable } from './table-scopes.ts';

/** The peer protocol's path: outside `/api/v1`, so a Service Worker relaying the API never takes it. */
export const SYNC_PREFIX = '/sync/v1';

/**
 * What a replica understands of a page, stated on every call as `?version=` (in the query: an
 * older hub ignores it, where its strict bodies would refuse a new field, and a new header
 * would need its CORS preflight). 2: `tables` refreshes (docs/SYNC.md, "Personal and shared
 * tables"). 3: channel history (docs/SYNC.md, "Channel history"): message bundles without flags
 * (`user_message: null`), history in snapshots, `POST /sync/v1/history`. 4: a wait's
 * ephemeral events are acknowledged by the replica's next wait (`ephemeral_ack`), not when they
 * are sent. A replica that states none is of version 1 (its code may outlive a hub's upgrade in
 * a tab left open): a hub tells it to resync where a `tables` refresh would do.
 */
export const SYNC_VERSION = 4;
/** The first version whose replicas hold channel history they did not receive. */
export const HISTORY_VERSION = 3;

/**
 * The first version whose replicas acknowledge a wait's typing notices and presence changes on
 * their next wait: a wait the replica gave up on (to run a round) may have been answered, and
 * what it carried is then sent again instead of lost.
 */
export const EPHEMERAL_ACK_VERSION = 4;

/** The replica's version a request states; 1 when it states none. */
export function syncVersionOf(request: Request): number {
  const stated = Number(new URL(request.url).searchParams.get('version'));
  return Number.isSafeInteger(stated) && stated >= 1 ? stated : 1;
}
export const SNAPSHOT_PATH = '/snapshot';
/** `POST /sync/v1/history`: a page of one channel's history the caller may read but did not receive. */
export const HISTORY_PATH = '/history';
/** A replica's user's upload: the API's `POST /user_uploads`, run on the hub as that user (docs/SYNC.md, "Files"). */
export const UPLOAD_PATH = '/upload';
/** `GET /sync/v1/file/<what follows /user_uploads/>`: an uploaded file's bytes as the hub's `/user_uploads/...` answers the caller. */
export const FILE_PATH_PREFIX = '/file/';

/**
 * A replica's own message ids start here: above any hub id (upstream's are 32-bit) and after
 * every confirmed message, as upstream's local echo ids sort (docs/SYNC.md).
 */
export const PROVISIONAL_ID_BASE = 2 ** 31;

export const MAX_PUSH_MUTATIONS = 500;
export const MAX_PULL_CHANGES = 500;
/** Messages in one page of a channel's history. */
export const MAX_HISTORY_MESSAGES = 1000;
/**
 * A mutation's parameters: names and values, bounded as the API bounds a request. A forwarded
 * administrator's form (`PATCH /realm`) may carry a few dozen settings at once.
 */
const MAX_PARAMS = 64;
const MAX_PARAM_NAME_LENGTH = 64;
/**
 * A synced write's body, at most, on a replica (a message is 10,000 characters, but the API
 * takes a longer one and cuts it); so no value of a mutation it queued is longer, and the hub
 * takes every one: a value it refused failed every push after it, for good.
 */
export const MAX_MUTATION_BYTES = 256 * 1024;
/** What one push carries at most, in bytes of JSON (the hub reads bodies up to 8 MiB); at least one mutation. */
export const MAX_PUSH_BYTES = 4 * 1024 * 1024;

export const isProvisionalId = (id: number): boolean => id >= PROVISIONAL_ID_BASE;

const identity = { hub_id: z.string().min(1).max(64), epoch: z.string().min(1).max(64) };
const clientId = z.string().regex(/^[A-Za-z0-9-]{8,64}$/);

/** A mutation's parameters as the hub takes them; a replica checks a write it forwards against the same. */
export const mutationParams = z
  .record(z.string().max(MAX_PARAM_NAME_LENGTH), z.string().max(MAX_MUTATION_BYTES))
  .refine((params) => Object.keys(params).length <= MAX_PARAMS, { error: 'too many params' });

export const pushedMutation = z.strictObject({
  mutation_id: z.int().positive(),
  method: z.enum(['POST', 'PATCH', 'DELETE']),
  path: z.string().min(1).max(200),
  params: mutationParams,
  provisional_id: z.int().min(PROVISIONAL_ID_BASE).optional(),
});
export type PushedMutation = z.output<typeof pushedMutation>;

export const pushBody = z.strictObject({
  ...identity,
  client_id: clientId,
  mutations: z.array(pushedMutation).max(MAX_PUSH_MUTATIONS),
});

export const pullBody = z.strictObject({
  ...identity,
  cursor: z.int().nonnegative(),
  limit: z.int().min(1).max(MAX_PULL_CHANGES).optional(),
});

export const historyBody = z.strictObject({
  ...identity,
  channel_id: z.int().positive(),
  /** Messages below this id (the previous page's oldest); absent: from the newest. */
  before: z.int().positive().optional(),
});

export interface HistoryAnswer {
  /** Newest first, each without flags (`user_message: null`): the page's messages the caller did not receive. */
  messages: MessageBundle[];
  /** Older messages remain: ask again with this as `before`; null when this page was the last. */
  before: number | null;
}

/** Messages a replica reads again at once (`POST /sync/v1/messages`). */
export const MAX_REFRESH_IDS = 1000;
export const REFRESH_PATH = '/messages';

export const refreshBody = z.strictObject({ ...identity, ids: z.array(z.int().positive()).min(1).max(MAX_REFRESH_IDS) });

export interface RefreshAnswer {
  /** The messages of `ids` the caller holds, as a pull bundles them. */
  messages: MessageBundle[];
  /** The others: gone, or out of the caller's sight. */
  deleted: number[];
}

/** A replica waiting for the hub's next change: at most this long per call. */
export const MAX_WAIT_SECONDS = 50;

/** How far a replica has received its relay queue's events: the queue (a new one after a hub restart), and the last event's id. */
export const ephemeralMark = z.strictObject({ queue_id: z.string().max(64), last_event_id: z.int().min(-1) });
export type EphemeralMark = z.output<typeof ephemeralMark>;

export const waitBody = z.strictObject({
  ...identity,
  cursor: z.int().nonnegative(),
  timeout_seconds: z.int().min(1).max(MAX_WAIT_SECONDS),
  /** Names the waiting replica: its answer then carries the typing notices and presence changes meant for its user (`ephemeral`). */
  client_id: clientId.optional(),
  /** The `ephemeral_until` of the last answer received (version 4): what the hub may now forget. Sent only to a hub that gave one. */
  ephemeral_ack: ephemeralMark.optional(),
});

/** The events a wait carries besides the feed's changes: notices nothing journals (docs/SYNC.md, "Ephemeral events"). */
export const EPHEMERAL_EVENT_TYPES: ReadonlySet<string> = new Set(['typing', 'typing_edit_message', 'presence']);

/** The API routes (below `/api/v1/`) a replica relays to `POST /sync/v1/ephemeral`: typing notices and presence reports. */
/**
 * The most ephemeral events one wait answer carries (the newest), and a replica delivers. A few
 * are plenty: a typing start or stop is soon outdated by the next one (clients expire them too),
 * and a user is announced only on coming (back) online.
 */
export const MAX_EPHEMERAL_PER_WAIT = 8;
export const EPHEMERAL_PATH = /^(typing|messages\/\d{1,16}\/typing|users\/me\/presence)$/;

/** A relayed request's parameters: at most 8, with short names and values up to `maxValue` characters. */
const fewParams = (maxValue: number) =>
  z
    .record(z.string().max(32), z.string().max(maxValue))
    .refine((params) => Object.keys(params).length <= 8, { error: 'too many params' });

/** A typing or presence request relayed by a replica, run on the hub as its user's own: a few short parameters. */
export const ephemeralBody = z.strictObject({ ...identity, path: z.string().regex(EPHEMERAL_PATH), params: fewParams(10_000) });
export type EphemeralBody = z.output<typeof ephemeralBody>;

/**
 * The API reads below `/api/v1/` whose answer only the hub holds (docs/SYNC.md, "Reads only the
 * hub can answer"): other users' read states, invitations, channel email addresses, exports, the
 * sandbox's outgoing mail. A replica relays them to `POST /sync/v1/read` instead of answering
 * from rows it does not have.
 */
export const HUB_READ_PATH = /^(messages\/\d{1,16}\/read_receipts|invites|streams\/\d{1,16}\/email_address|export\/realm|sandbox\/outgoing_mail)$/;

/** A read relayed by a replica, run on the hub as its user's own `GET`: a few short query parameters. */
export const hubReadBody = z.strictObject({ ...identity, path: z.string().regex(HUB_READ_PATH), params: fewParams(1_000) });
export type HubReadBody = z.output<typeof hubReadBody>;
export const HUB_READ_ROUTE = '/read';

/** One mutation's outcome, as the hub recorded it. */
export type MutationResult =
  | { mutation_id: number; outcome: 'applied'; answer: Record<string, unknown>; final_id?: number }
  | { mutation_id: number; outcome: 'refused'; status: number; error: MutationError };

/** A refusal as the hub's API answered it: `msg`, `code` and any fields of its own (`var_name`, ...). */
export type MutationError = { msg: string; code: string } & Record<string, unknown>;

export interface PushAnswer {
  results: MutationResult[];
}

/**
 * A message as the caller holds it: the row, its reactions, the caller's flags, its recipient.
 * No flags (`null`) for channel history the caller may read but did not receive.
 */
export interface MessageBundle {
  message: MessageRow;
  user_message: UserMessageRow | null;
  reactions: ReactionRow[];
  recipient: RecipientRow;
}

/** A channel the caller may see, its recipient, and its subscriptions the caller may see (all of them: they replace the replica's). */
export interface ChannelBundle {
  channel: ChannelRow;
  recipient: RecipientRow;
  subscriptions: SubscriptionRow[];
}

/** A user as the caller may know them (the snapshot's filter), with their personal recipient. */
export interface UserBundle {
  user: UserRow;
  recipient: RecipientRow;
}

/**
 * Personal and shared rows the page's `tables` entries report changed (`EVENT_TABLES`): the
 * caller's rows of each table named, scoped as the snapshot scopes them, which replace the
 * replica's, and the caller's share of the events the hub told (only the caller in `users`,
 * only the caller's own fields). The caller's own `users` row comes in `users`.
 */
export interface TablesRefresh {
  rows: Partial<Record<Exclude<RefreshedTable, 'users'>, Record<string, unknown>[]>>;
  notices: JournaledNotice[];
}

export interface PullAnswer {
  hub_id: string;
  epoch: string;
  cursor: number;
  more: boolean;
  messages: MessageBundle[];
  deleted: number[];
  /** The caller's topic visibility policies, all of them, when one changed in this page: they replace the replica's. */
  user_topics?: UserTopicRow[];
  /** Changed users, as the caller may know them. */
  users?: UserBundle[];
  /** Changed channels the caller may see, with their subscriptions. */
  channels?: ChannelBundle[];
  /** Changed channels the caller was told of and may no longer see, as the event that told them showed them. */
  removed_channels?: ChannelRow[];
  /** Changed personal and shared rows of the caller's, with the events the hub told of them. */
  tables?: TablesRefresh;
  /** A change of what still travels only in a snapshot (realm settings, groups, ...) concerned the caller. */
  realm_changed: boolean;
}

export interface SnapshotAnswer {
  hub_id: string;
  epoch: string;
  cursor: number;
  /** The channels whose history the snapshot holds (`HISTORY_VERSION`); absent from an older hub. */
  history_channel_ids?: number[];
  tables: Record<string, Record<string, unknown>[]>;
}

/** The hub's answer when a replica must start again from a snapshot. */
export const RESYNC_NEEDED = 'SYNC_RESYNC_NEEDED';
export const UNSUPPORTED_ACTION = 'SYNC_UNSUPPORTED_ACTION';
/** A replica's answer to a write only the hub can do while the hub cannot be reached. */
export const HUB_UNREACHABLE = 'SYNC_HUB_UNREACHABLE';
