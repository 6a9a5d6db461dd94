/**
 * After every Node test, each engine the test created must hold user_messages rows whose copied
 * place (stream_id, thread_key, sender_id) matches their message: a page reads the viewer's flags
 * by that place, so a writer that forgets it (or a move that leaves it behind) loses flags
 * silently. Checking every engine at the end of every test makes any writer the tests reach
 * fail loudly instead, whether it is an action, an import, a scenario load or a sync replica.
 */
import { afterEach } from 'vitest';
import { Engine } from '../../src/engine/engine.ts';
import { placeColumns } from '../../src/engine/storage/flags.ts';

// The node project runs its files in one module scope per worker (isolate: false), and this
// file again before each of them: Engine.create is wrapped once, into one list for them all.
const CREATED = Symbol.for('offline-realm.test.created-engines');
const shared = globalThis as typeof globalThis & { [CREATED]?: Engine[] };
const created = (shared[CREATED] ??= recordCreatedEngines());

function recordCreatedEngines(): Engine[] {
  const engines: Engine[] = [];
  const create = Engine.create;
  Engine.create = async (...args: Parameters<typeof Engine.create>): Promise<Engine> => {
    const engine = await create.apply(Engine, args);
    engines.push(engine);
    return engine;
  };
  return engines;
}

afterEach(async () => {
  for (const engine of new Set(created.splice(0))) {
    // Most tests close their engine in their own afterEach, which runs first; its rows stay in
    // its IndexedDB, so the database is opened again for the check and closed after it.
    const closed = !engine.db.isOpen();
    if (closed) await engine.db.open();
    try {
      const mismatch = await misplacedRow(engine);
      if (mismatch) throw new Error(`user_messages row out of place: ${mismatch}`);
    } finally {
      if (closed) engine.db.close();
    }
  }
});

/** The first user_messages row whose message is missing or whose place differs from it, described. */
async function misplacedRow(engine: Engine): Promise<string | null> {
  const { db } = engine;
  const [rows, messages] = await db.transaction('r', [db.user_messages, db.messages], () =>
    Promise.all([db.user_messages.toArray(), db.messages.toArray()]),
  );
  const byId = new Map(messages.map((m) => [m.id, m]));
  for (const row of rows) {
    const message = byId.get(row.message_id);
    if (!message) return `${JSON.stringify(row)} has no message`;
    const expected = placeColumns(message);
    const actual = { stream_id: row.stream_id, thread_key: row.thread_key, sender_id: row.sender_id };
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      return `${JSON.stringify(row)} should carry ${JSON.stringify(expected)}`;
    }
  }
  return null;
}
