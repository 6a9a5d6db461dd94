import { z } from 'zod';
import { MAX_CONFIGURABLE_UPLOAD_SIZE_MIB } from '../validation/upload-limits.ts';

/**
 * The scenario file format of the runtime contract (section 3), plus this project's optional
 * extensions for lively realms (message reactions, edits, stars, unread state, channel topic
 * and posting policies). Unknown keys are errors everywhere.
 */
const email = z.string().trim().toLowerCase().pipe(z.email());

const realm = z
  .strictObject({
    name: z.string().min(1).max(40).default('Offline Realm'),
    host: z
      .string()
      .regex(/^[a-z0-9.-]+(:\d+)?$/i, 'must be a host name such as lakeside.test')
      .default('offline-realm.test'),
    description: z.string().max(1000).default(''),
    empty_topic_display_name: z.string().min(1).max(60).default('general chat'),
    topics_policy: z.enum(['allow_empty_topic', 'disable_empty_topic']).default('allow_empty_topic'),
    email_address_visibility: z.literal([1, 2, 3, 4, 5]).default(1),
    max_file_upload_size_mib: z.int().min(0).max(MAX_CONFIGURABLE_UPLOAD_SIZE_MIB).optional(),
    enable_dev_login: z.boolean().optional(),
    enable_read_receipts: z.boolean().optional(),
    /** The channel (by name) that receives message reports. */
    moderation_request_channel: z.string().optional(),
  })
  .prefault({});

const user = z.strictObject({
  email,
  full_name: z.string().trim().min(1).max(60),
  role: z
    .literal([100, 200, 300, 400, 600], { error: 'expected one of 100 (owner), 200 (administrator), 300 (moderator), 400 (member), 600 (guest)' })
    .default(400),
  password: z.string().min(1).optional(),
  api_key: z
    .string()
    .regex(/^[A-Za-z0-9]{32}$/, 'must be 32 letters and digits')
    .optional(),
  timezone: z.string().default(''),
  is_bot: z.boolean().default(false),
  bot_type: z.literal([1, 2, 3, 4]).optional(),
  bot_owner: email.optional(),
  can_create_users: z.boolean().optional(),
  /** Upstream's special permission to change users' emails, which an owner also needs to do so. */
  can_change_user_emails: z.boolean().default(false),
});

const folder = z.strictObject({
  name: z.string().trim().min(1).max(60),
  description: z.string().max(1000).default(''),
});

const channel = z.strictObject({
  name: z.string().trim().min(1).max(60),
  description: z.string().max(1024).default(''),
  invite_only: z.boolean().default(false),
  folder: z.string().optional(),
  subscribers: z.array(email).default([]),
  history_public_to_subscribers: z.boolean().optional(),
  is_default_stream: z.boolean().default(false),
  topics_policy: z.enum(['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only']).default('inherit'),
  stream_post_policy: z.literal([1, 2, 3, 4]).default(1),
});

const message = z
  .strictObject({
    sender: email,
    channel: z.string().optional(),
    topic: z.string().max(60).optional(),
    to: z.array(email).min(1).optional(),
    content: z.string().min(1).max(10000),
    timestamp: z.int().nonnegative().optional(),
    reactions: z.array(z.strictObject({ user: email, emoji: z.string().min(1) })).default([]),
    edits: z
      .array(
        z
          .strictObject({ content: z.string().min(1).max(10000).optional(), topic: z.string().max(60).optional(), timestamp: z.int() })
          .refine((e) => e.content !== undefined || e.topic !== undefined, 'an edit changes content or topic'),
      )
      .default([]),
    starred_by: z.array(email).default([]),
    unread_for: z.array(email).default([]),
  })
  .refine((m) => (m.channel === undefined) !== (m.to === undefined), {
    message: 'a message has either "channel" (with "topic") or "to"',
  })
  .refine((m) => m.channel === undefined || m.topic !== undefined, { message: 'a channel message needs "topic"', path: ['topic'] })
  .refine((m) => m.to === undefined || m.topic === undefined, { message: 'a direct message has no "topic"', path: ['topic'] });

export const scenarioSchema = z.strictObject({
  realm,
  users: z.array(user).min(1),
  channel_folders: z.array(folder).default([]),
  channels: z.array(channel).default([]),
  messages: z.array(message).default([]),
});

export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioUser = Scenario['users'][number];
export type ScenarioChannel = Scenario['channels'][number];
export type ScenarioMessage = Scenario['messages'][number];

/** A fault in a scenario file, located by the JSON path of its first fault (`$.users[2].email`). */
export class ScenarioError extends Error {
  readonly path: string;
  constructor(path: string, detail: string) {
    super(`${path}: ${detail}`);
    this.path = path;
  }
}

export function jsonPath(path: readonly PropertyKey[]): string {
  return `$${path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('')}`;
}

export function parseScenario(input: unknown): Scenario {
  const result = scenarioSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ScenarioError(jsonPath(issue.path), issue.message);
  }
  return result.data;
}
