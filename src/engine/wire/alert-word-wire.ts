import type { RealmDatabase } from '../storage/database.ts';

/** A user's alert words in the order they were added, as the API lists them. */
export async function alertWordsOf(db: RealmDatabase, userId: number): Promise<string[]> {
  const rows = await db.alert_words.where('user_id').equals(userId).toArray();
  return rows.sort((a, b) => a.id - b.id).map((row) => row.word);
}
