// The benchmark realm: a small scenario loaded through the engine, then 100k messages written
// straight into Dexie in bulk chunks, shaped exactly as the send action writes them.
import type { Engine } from '../src/engine/engine.ts';
import { userMessageRow } from '../src/engine/storage/flags.ts';
import { searchWords } from '../src/engine/validation/message-limits.ts';
import { dmKey } from '../src/engine/storage/recipients.ts';
import { FLAG_BITS, type MessageRow, type UserMessageRow } from '../src/engine/storage/rows.ts';

export const MESSAGE_COUNT = 100_000;
const CHUNK = 10_000;
const USER_COUNT = 24;
const TOPICS_PER_CHANNEL = 40;
/** The newest messages stay unread for everyone but their sender, as in a live realm. */
const UNREAD_TAIL = 2_000;
const DM_SHARE = 0.05;
const HOST = 'bench.test';

export interface BenchUser {
  id: number;
  email: string;
  apiKey: string;
}

export interface BenchRealm {
  users: BenchUser[];
  /** The channel and topic of the page and send figures, and who is subscribed to it. */
  hot: { channelId: number; channelName: string; topic: string; subscribers: BenchUser[]; topicMessages: number };
  messages: number;
  userMessages: number;
}

/** Channels as [name, number of subscribers, share of channel messages]; the first user is in all. */
const CHANNELS: Array<[string, number, number]> = [
  ['general', USER_COUNT, 0.02],
  ['engineering', 10, 0.12],
  ['design', 4, 0.1],
  ['support', 4, 0.1],
  ['random', 5, 0.1],
  ['ops', 3, 0.1],
  ['sales', 3, 0.1],
  ['research', 3, 0.12],
  ['mobile', 4, 0.12],
  ['web', 4, 0.12],
];
const HOT_CHANNEL = 'engineering';
const HOT_TOPIC = 'release train';
/** Share of the hot channel's messages that land in its one big topic. */
const HOT_TOPIC_SHARE = 0.35;

const WORDS = (
  'the build is green again after we pinned the parser version and reran the flaky suite on ' +
  'both runners please review the migration before friday because the index change touches ' +
  'every message row and we need a rollback plan plus numbers from staging for the new cache'
).split(' ');

function users(): Array<{ email: string; full_name: string; role: number; api_key: string }> {
  return Array.from({ length: USER_COUNT }, (_, i) => ({
    email: `user${i + 1}@${HOST}`,
    full_name: `Bench User ${i + 1}`,
    role: i === 0 ? 100 : i === 1 ? 200 : 400,
    api_key: `BenchKey${String(i + 1).padStart(24, '0')}`,
  }));
}

/** Every channel has user 1; the others take consecutive users, wrapping around. */
function subscriberIndexes(channelIndex: number, count: number): number[] {
  const picked = new Set<number>([0]);
  for (let k = 0; picked.size < count; k++) picked.add((channelIndex * 5 + k) % USER_COUNT);
  return [...picked];
}

export function benchScenario(): unknown {
  const all = users();
  return {
    realm: { name: 'Bench Realm', host: HOST },
    users: all,
    channels: CHANNELS.map(([name, count], index) => ({
      name,
      description: `${name} channel`,
      subscribers: subscriberIndexes(index, count).map((i) => all[i].email),
      is_default_stream: name === 'general',
    })),
    messages: [],
  };
}

/** A deterministic generator, so every run builds the same realm. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function content(next: () => number): string {
  const length = 12 + Math.floor(next() * 24);
  const words: string[] = [];
  for (let i = 0; i < length; i++) words.push(WORDS[Math.floor(next() * WORDS.length)]);
  return words.join(' ');
}

/** Each recipient's flags row, as the send action writes it; the sender has read the message. */
function flagRows(id: number, recipients: number[], senderId: number, unread: boolean, isDirect: boolean): UserMessageRow[] {
  return recipients.map((userId) => userMessageRow(userId, id, userId === senderId || !unread ? FLAG_BITS.read : 0, isDirect));
}

/** Loads the scenario, then writes the messages (100k unless told) and their per-user flag rows. */
export async function buildBenchRealm(engine: Engine, messageCount = MESSAGE_COUNT): Promise<BenchRealm> {
  // fake-indexeddb skips a row for a sparse index by throwing and catching a DOMException; without
  // stack traces those cost a third as much, which keeps building the realm near 20 s.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return await build(engine, messageCount);
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

async function build(engine: Engine, messageCount: number): Promise<BenchRealm> {
  await engine.loadScenario(benchScenario());
  const { db } = engine;
  const userRows = (await db.users.toArray()).filter((u) => !u.is_system_bot).sort((a, b) => a.id - b.id);
  const channelRows = (await db.channels.toArray()).sort((a, b) => a.id - b.id);
  const subscriptions = await db.subscriptions.toArray();
  const subscribersOf = new Map(channelRows.map((c) => [c.id, subscriptions.filter((s) => s.channel_id === c.id).map((s) => s.user_id)]));
  const hotChannel = channelRows.find((c) => c.name === HOT_CHANNEL)!;
  const cumulative: Array<[number, number]> = [];
  let share = 0;
  for (const [name, , weight] of CHANNELS) cumulative.push([(share += weight), channelRows.find((c) => c.name === name)!.id]);

  const next = random(42);
  const start = engine.nowSeconds() - messageCount * 30;
  const firstMessageOf = new Map<number, number>();
  let userMessages = 0;
  let topicMessages = 0;
  for (let first = 1; first <= messageCount; first += CHUNK) {
    const messages: MessageRow[] = [];
    const flags: UserMessageRow[] = [];
    for (let id = first; id < first + CHUNK && id <= messageCount; id++) {
      const text = content(next);
      const unread = id > messageCount - UNREAD_TAIL;
      const base = { id, content: text, rendered_content: `<p>${text}</p>`, timestamp: start + id * 30, client: 'website' };
      if (next() < DM_SHARE) {
        const sender = userRows[Math.floor(next() * userRows.length)];
        const other = userRows[(userRows.indexOf(sender) + 1 + Math.floor(next() * (userRows.length - 1))) % userRows.length];
        messages.push({
          ...base,
          sender_id: sender.id,
          type: 'private',
          topic: '',
          recipient_id: other.recipient_id,
          is_me_message: false,
          has_link: false,
          has_image: false,
          has_attachment: false,
          words: searchWords(text, ''),
          dm_key: dmKey([sender.id, other.id]),
        });
        flags.push(...flagRows(id, [sender.id, other.id], sender.id, unread, true));
        continue;
      }
      const pick = next() * share;
      const channelId = cumulative.find(([edge]) => pick < edge)?.[1] ?? cumulative[0][1];
      const channel = channelRows.find((c) => c.id === channelId)!;
      const subscribers = subscribersOf.get(channelId)!;
      const sender = subscribers[Math.floor(next() * subscribers.length)];
      const inHotTopic = channelId === hotChannel.id && next() < HOT_TOPIC_SHARE;
      if (inHotTopic) topicMessages++;
      const topic = inHotTopic ? HOT_TOPIC : `${channel.name} topic ${Math.floor(next() * TOPICS_PER_CHANNEL)}`;
      if (!firstMessageOf.has(channelId)) firstMessageOf.set(channelId, id);
      messages.push({
        ...base,
        sender_id: sender,
        type: 'stream',
        topic,
        recipient_id: channel.recipient_id,
        is_me_message: false,
        has_link: false,
        has_image: false,
        has_attachment: false,
        words: searchWords(text, topic),
        stream_id: channelId,
        topic_key: topic.toLowerCase(),
      });
      flags.push(...flagRows(id, subscribers, sender, unread, false));
    }
    userMessages += flags.length;
    await db.messages.bulkAdd(messages);
    // Small bulks: fake-indexeddb queues one request per row and dequeues with Array#shift.
    for (let k = 0; k < flags.length; k += CHUNK) await db.user_messages.bulkAdd(flags.slice(k, k + CHUNK));
  }
  await db.transaction('rw', [db.channels, db.counters], async () => {
    for (const [channelId, id] of firstMessageOf) await db.channels.update(channelId, { first_message_id: id });
    await db.counters.put({ name: 'message', next: messageCount + 1 });
  });

  const scenarioUsers = users();
  const benchUsers = userRows.map((row) => ({ id: row.id, email: row.email, apiKey: scenarioUsers.find((u) => u.email === row.email)!.api_key }));
  const hotSubscribers = subscribersOf.get(hotChannel.id)!;
  return {
    users: benchUsers,
    hot: {
      channelId: hotChannel.id,
      channelName: hotChannel.name,
      topic: HOT_TOPIC,
      subscribers: benchUsers.filter((u) => hotSubscribers.includes(u.id)),
      topicMessages,
    },
    messages: messageCount,
    userMessages,
  };
}
