import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAction } from '../../src/engine/services/run-action.ts';
import { ApiError } from '../../src/engine/errors/api-error.ts';
import { RealmDirectory } from '../../src/engine/directory/realm-directory.ts';
import { loadAccessibleMessage } from '../../src/engine/narrow/message-access.ts';
import { filterMessageIds, findMessageIds } from '../../src/engine/narrow/message-page.ts';
import { parseNarrow } from '../../src/engine/narrow/narrow-parse.ts';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

describe('the narrow API inside an action', () => {
  it('finds pages and checks access without ending the caller transaction', async () => {
    const result = await runAction(realm.engine, async ({ db }) => {
      const directory = await RealmDirectory.load(db);
      const viewer = directory.user(IDS.mark);
      const terms = parseNarrow([{ operator: 'channel', operand: 'general' }], directory, viewer);
      const page = await findMessageIds(db, directory, viewer, terms, { anchor: 'newest', numBefore: 10, numAfter: 0, includeAnchor: true });
      const filtered = await filterMessageIds(db, directory, viewer, [], [4, 3, 99]);
      const { row, userMessage } = await loadAccessibleMessage(db, directory, viewer, 4);
      await db.counters.put({ name: 'probe', next: 1 });
      const { found: _rows, ...window } = page;
      return { page: window, filtered, row: row.id, flags: userMessage?.flags };
    });
    expect(result).toEqual({
      page: { ids: [1, 2], anchor: 10_000_000_000_000_000, foundAnchor: false, foundOldest: true, foundNewest: true },
      filtered: [3, 4],
      row: 4,
      flags: 1,
    });
    expect(await realm.engine.db.counters.get('probe')).toEqual({ name: 'probe', next: 1 });
  });

  it('rejects an inaccessible message with "Invalid message(s)" and rolls the action back', async () => {
    const attempt = runAction(realm.engine, async ({ db }) => {
      await db.counters.put({ name: 'probe', next: 1 });
      const directory = await RealmDirectory.load(db);
      await loadAccessibleMessage(db, directory, directory.user(IDS.mia), 3);
    });
    await expect(attempt).rejects.toEqual(new ApiError('Invalid message(s)'));
    expect(await realm.engine.db.counters.get('probe')).toBeUndefined();
  });
});
