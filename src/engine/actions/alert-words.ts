/**
 * A user's alert words: messages that contain one get the `has_alert_word` flag for that user
 * (see `alertedRecipients`). Every change answers and announces the whole new list
 * (`alert_words` event, to the owner only), even when nothing changed, as upstream.
 */
import { usersWithAlertWords } from '../markdown/alert-word-match.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { alertWordsByUser } from '../directory/cached-reads.ts';
import { nextId, type RealmDatabase } from '../storage/database.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { alertWordsOf } from '../wire/alert-word-wire.ts';

/** Adds the words not already there (ignoring case), each as first typed; blank ones are dropped. */
export async function addAlertWords(scope: CallerScope, words: string[]): Promise<string[]> {
  const userId = scope.caller.id;
  const existing = new Set((await alertWordsOf(scope.db, userId)).map((word) => word.toLowerCase()));
  const added = new Map<string, string>();
  for (const word of words.map((w) => w.trim()).filter((w) => w !== '')) {
    const key = word.toLowerCase();
    if (!existing.has(key) && !added.has(key)) added.set(key, word);
  }
  for (const word of added.values()) await scope.db.alert_words.add({ id: await nextId(scope.db, 'alert_word'), user_id: userId, word });
  return announce(scope);
}

/** Removes the words matching these, ignoring case; others are ignored. */
export async function removeAlertWords(scope: CallerScope, words: string[]): Promise<string[]> {
  const removed = new Set(words.map((word) => word.toLowerCase()));
  await scope.db.alert_words
    .where('user_id')
    .equals(scope.caller.id)
    .filter((row) => removed.has(row.word.toLowerCase()))
    .delete();
  return announce(scope);
}

async function announce(scope: CallerScope): Promise<string[]> {
  const words = await alertWordsOf(scope.db, scope.caller.id);
  scope.notify({ event: { type: 'alert_words', alert_words: words }, users: [scope.caller.id] });
  return words;
}

/**
 * The recipients whose alert words occur in the content: active users other than the sender
 * (a sender is not alerted by their own message).
 */
export async function alertedRecipients(
  db: RealmDatabase,
  directory: RealmDirectory,
  content: string,
  recipients: Iterable<number>,
  senderId: number,
): Promise<Set<number>> {
  const candidates = new Set([...recipients].filter((id) => id !== senderId && directory.users.get(id)?.is_active));
  if (candidates.size === 0) return new Set();
  const allWords = await alertWordsByUser(db);
  const wordsByUser = new Map<number, string[]>();
  for (const userId of candidates) {
    const words = allWords.get(userId);
    if (words) wordsByUser.set(userId, [...words]);
  }
  return wordsByUser.size === 0 ? new Set() : usersWithAlertWords(content, wordsByUser);
}
