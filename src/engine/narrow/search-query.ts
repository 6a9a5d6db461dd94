import type { SearchQuery } from './narrow-terms.ts';

/** Word characters as `searchWords` (message-limits.ts) splits stored messages. */
const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * A `search` operand as words and quoted phrases. Every word, quoted or not, must be among
 * the message's words; a quoted phrase must also appear as written (case-insensitively).
 */
export function parseSearchQuery(text: string): SearchQuery {
  const phrases: string[] = [];
  for (const match of text.matchAll(/"([^"]+)"/g)) phrases.push(match[1].toLowerCase());
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(WORD)) words.add(match[0]);
  return { words: [...words], phrases };
}

/** Whether a message (its indexed words, content and topic) satisfies the query. */
export function matchesSearch(query: SearchQuery, words: readonly string[], content: string, topic: string): boolean {
  if (query.words.length === 0 && query.phrases.length === 0) return false;
  const own = new Set(words);
  if (!query.words.every((word) => own.has(word))) return false;
  const haystacks = [content.toLowerCase(), topic.toLowerCase()];
  return query.phrases.every((phrase) => haystacks.some((text) => text.includes(phrase)));
}
