import { Dexie, type Table } from 'dexie';
import { withoutLiveQueries } from '../../engine/storage/without-live-queries.ts';

/** The hub this browser replicates, and once someone logged in, whose view it holds. */
export interface ReplicaLink {
  hub_url: string;
  email?: string;
  api_key?: string;
}

interface StoredLink extends ReplicaLink {
  id: 1;
}

/**
 * Where the engine worker remembers that it is a replica (so a reload, or an offline reload,
 * stays one without `?sync=`): a database of its own, apart from the realm's, which a snapshot
 * or a scenario replaces whole.
 */
export class ReplicaLinkStore {
  readonly #links: Table<StoredLink, number>;

  constructor(indexedDB: IDBFactory, keyRange: typeof IDBKeyRange, name = 'offline-realm-replica') {
    const db = withoutLiveQueries(new Dexie(name, { indexedDB, IDBKeyRange: keyRange }));
    db.version(1).stores({ link: 'id' });
    this.#links = db.table('link');
  }

  async get(): Promise<ReplicaLink | undefined> {
    const stored = await this.#links.get(1);
    if (!stored) return undefined;
    const { id: _id, ...link } = stored;
    return link;
  }

  async put(link: ReplicaLink): Promise<void> {
    await this.#links.put({ ...link, id: 1 });
  }
}
