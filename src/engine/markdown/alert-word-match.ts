/**
 * Upstream's alert word matching (its Markdown preprocessor): a word or phrase matches,
 * ignoring case, where the character before it and the one after it are white space, the
 * content's edge, or one of the punctuation marks below.
 */
const ALLOWED_BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
// Upstream's list also has the two-character string `",`, which never equals one character: a
// double quote right after a word does not end it.
const ALLOWED_AFTER = new Set([' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/** Whether `word` (lower case) occurs in `content` (lower case) as upstream delimits it. */
function occursIn(content: string, word: string): boolean {
  for (let start = content.indexOf(word); start !== -1; start = content.indexOf(word, start + 1)) {
    // As upstream, a match starting at the second character is accepted whatever the first is.
    const before = start - 1;
    const after = start + word.length;
    const startsWell = before <= 0 || ALLOWED_BEFORE.has(content[before]);
    const endsWell = after >= content.length || ALLOWED_AFTER.has(content[after]);
    if (startsWell && endsWell) return true;
  }
  return false;
}

/** The users (keys of `wordsByUser`) with at least one of their words in the content. */
export function usersWithAlertWords(content: string, wordsByUser: ReadonlyMap<number, readonly string[]>): Set<number> {
  const lowered = content.toLowerCase();
  const found = new Map<string, boolean>();
  const users = new Set<number>();
  for (const [userId, words] of wordsByUser) {
    for (const word of words) {
      const key = word.toLowerCase();
      if (!found.has(key)) found.set(key, occursIn(lowered, key));
      if (found.get(key)) {
        users.add(userId);
        break;
      }
    }
  }
  return users;
}
