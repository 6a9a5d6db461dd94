// The sync figures' realm: a training room of users all in one channel, a hub serving it over
// loopback (the Node host with the peer protocol, in this process), and replicas of it.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Engine } from '../src/engine/engine.ts';
import { createNodeServer, type NodeServer } from '../src/hosts/node-http.ts';
import { syncChangeJournal } from '../src/sync/hub/change-journal.ts';
import { SyncHub } from '../src/sync/hub/sync-hub.ts';
import { SyncReplica } from '../src/sync/replica/sync-replica.ts';
import type { BenchUser } from './realm-fixture.ts';

export const ROOM = 'room';
const HOST = 'sync.bench';

/** The trainer (an owner) first, then `trainees` members; every one subscribed to the room. Ids are the hub's, set once it is loaded. */
export function roomUsers(trainees: number): BenchUser[] {
  return Array.from({ length: trainees + 1 }, (_, i) => ({
    id: 0,
    email: `user${i}@${HOST}`,
    apiKey: `SyncBenchKey${String(i).padStart(20, '0')}`,
  }));
}

export interface BenchHub {
  engine: Engine;
  server: NodeServer;
  users: BenchUser[];
  close(): Promise<void>;
}

export async function startHub(trainees: number): Promise<BenchHub> {
  const users = roomUsers(trainees);
  const engine = await Engine.create({ name: `sync-hub-${crypto.randomUUID()}`, indexedDB: new IDBFactory(), IDBKeyRange, writeJournal: syncChangeJournal });
  await loadRoom(engine, users);
  const server = await createNodeServer(engine, { port: 0, syncHub: new SyncHub(engine) });
  return {
    engine,
    server,
    users,
    close: async () => {
      await server.close();
      engine.close();
    },
  };
}

/** Loads the training room into `engine` and sets the users' ids to its. */
export async function loadRoom(engine: Engine, users: BenchUser[]): Promise<void> {
  await engine.loadScenario({
    realm: { name: 'Training room', host: HOST },
    users: users.map((u, i) => ({ email: u.email, full_name: `Trainee ${i}`, role: i === 0 ? 100 : 400, api_key: u.apiKey })),
    channels: [{ name: ROOM, subscribers: users.map((u) => u.email) }],
  });
  for (const user of users) user.id = (await engine.db.users.where('api_key').equals(user.apiKey).first())!.id;
}

/** An engine of its own holding the training room, with no sync (the latency figure's floor). */
export async function roomEngine(trainees: number): Promise<{ engine: Engine; users: BenchUser[] }> {
  const engine = await Engine.create({ name: `sync-floor-${crypto.randomUUID()}`, indexedDB: new IDBFactory(), IDBKeyRange });
  const users = roomUsers(trainees);
  await loadRoom(engine, users);
  return { engine, users };
}

/** A replica of `user`'s view on its own engine, reaching the hub over loopback HTTP. */
export async function newReplica(hubUrl: string, user: BenchUser): Promise<SyncReplica> {
  const engine = await Engine.create({ name: `sync-replica-${crypto.randomUUID()}`, indexedDB: new IDBFactory(), IDBKeyRange });
  return new SyncReplica({ engine, fetch: (request) => fetch(request), hubUrl, email: user.email, apiKey: user.apiKey });
}

/** A chat message sent to the room. */
export const roomMessage = (content: string, topic = 'practice') => ({ type: 'stream', to: ROOM, topic, content });
