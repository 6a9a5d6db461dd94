import { displayTopic } from '../wire/message-wire.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { MessageRow } from '../storage/rows.ts';
import type { SearchQuery } from './narrow-terms.ts';

const HIGHLIGHT_START = '<span class="highlight">';
const HIGHLIGHT_END = '</span>';

/** Tags and character references are skipped; only text between them is highlighted. */
const HTML_PIECE = /(<[^>]*>|&[#\w]+;)/;
const WORD = /[\p{L}\p{N}_]+/gu;

/** The `match_content` and `match_subject` fields a search adds to a message. */
export function searchMatchFields(
  row: MessageRow,
  query: SearchQuery,
  directory: RealmDirectory,
  allowEmptyTopicName: boolean,
): { match_content: string; match_subject: string } {
  const words = new Set(query.words);
  const topic = row.type === 'stream' ? displayTopic(row.topic, directory, allowEmptyTopicName) : '';
  return {
    match_content: highlightWords(row.rendered_content, words),
    match_subject: highlightWords(escapeHtml(topic), words),
  };
}

/** Wraps each whole word of `html`'s text that is one of `words` in a highlight span. */
export function highlightWords(html: string, words: ReadonlySet<string>): string {
  if (words.size === 0) return html;
  return html
    .split(HTML_PIECE)
    .map((piece, index) =>
      index % 2 === 1
        ? piece
        : piece.replace(WORD, (word) => (words.has(word.toLowerCase()) ? `${HIGHLIGHT_START}${word}${HIGHLIGHT_END}` : word)),
    )
    .join('');
}

/** Django's `escape`, which upstream applies to the topic before highlighting. */
function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}
