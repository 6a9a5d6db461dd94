import type { RealmRow } from '../storage/rows.ts';

/** Every API path lives below this prefix. */
export const API_PREFIX = '/api/v1';

/** Where register's `server_emoji_data_url` points: under the prefix, which every host serves. */
export const SERVER_EMOJI_DATA_PATH = '/server_emoji_data';

/** The realm's own URL (its host name, over http). */
export const realmUrl = (realm: RealmRow): string => `http://${realm.host}`;
