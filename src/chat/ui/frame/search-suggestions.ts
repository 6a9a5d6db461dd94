import type { Channel, User } from '../../api/wire-types.ts';
import type { Suggestion } from '../compose/typeahead.tsx';
import { type Filter, OPERANDS, OPERATORS, starters } from './search-operators.ts';

/** One of the search box's suggestions; taking one that `searches` searches at once. */
export interface SearchSuggestion extends Suggestion {
  searches?: true;
}

export interface SearchSources {
  users(): User[];
  channels(): Channel[];
  /** Upstream's "Sent by me" names me by email. */
  myEmail(): string;
  /** A channel's topics, newest first; undefined while they are fetched. */
  topics(channel: Channel): string[] | undefined;
}

const quoted = (operand: string): string => (/\s/.test(operand) ? `"${operand}"` : operand);
const operandOf = (term: string): string => term.slice(term.indexOf(':') + 1);
/** Upstream's phrase match: the name, or one of its words, starts with the query. */
const phraseMatch = (query: string, name: string): boolean => {
  const lower = name.toLowerCase();
  return lower.startsWith(query) || lower.split(' ').some((word) => word.startsWith(query));
};
/** A filter as offered: its term (negated by `sign`), what it finds beside it. */
const filterOffer = ({ term, description }: Filter, sign = ''): Offer => ({ key: sign + term, label: sign + term, detail: description, term: sign + term });

/**
 * The search box's suggestions, as upstream's (web/src/search_suggestion.ts): an empty box offers
 * the filters to start from; a word offers the plain search for the whole text first, then the
 * operators, filters, channels and people it starts; an operator being typed offers its operands
 * (`sender:mar`, `channel:eng`, `is:st`, `channel:X topic:`). Nothing once a term is finished (a
 * space typed, an operand complete), so Enter then searches.
 */
export function searchSuggestions(sources: SearchSources): (text: string, caret: number) => SearchSuggestion[] {
  return (text, caret) => {
    // A filter taken from the empty box is a whole search: it searches at once, as upstream's.
    if (text.trim() === '') return starters(sources.myEmail()).map((filter) => ({ ...replacing(text, 0, text.length, filterOffer(filter), true), searches: true }));
    const before = text.slice(0, caret);
    if (/\s$/.test(before)) return [];
    const operand = /(?:^|\s)-?([a-z-]+):(\S*)$/i.exec(before);
    if (operand) return operandSuggestions(sources, text, caret, operand[1].toLowerCase(), operand[2]);
    const word = /\S*$/.exec(before)?.[0] ?? '';
    const plain: SearchSuggestion = { key: ' search', label: text.trim(), detail: 'Search', searches: true, apply: () => ({ text, caret }) };
    return unique([plain, ...wordCompletions(sources, text, caret, word)]);
  };
}

interface Offer {
  key: string;
  label: string;
  detail?: string;
  /** What replaces the typed part. */
  term: string;
}

/** Replaces `start`..`caret` by the offer's term; a finished term gets its space, so the next one can be typed. */
function replacing(text: string, start: number, caret: number, offer: Offer, finished: boolean): SearchSuggestion {
  return {
    key: offer.key,
    label: offer.label,
    detail: offer.detail,
    apply: () => {
      const head = `${text.slice(0, start)}${offer.term}${finished ? ' ' : ''}`;
      return { text: `${head}${text.slice(caret).trimStart()}`, caret: head.length };
    },
  };
}

function operandSuggestions(sources: SearchSources, text: string, caret: number, operator: string, typed: string): SearchSuggestion[] {
  const query = typed.toLowerCase();
  let offers: Offer[];
  if (operator === 'is' || operator === 'has') {
    offers = OPERANDS[operator].filter(({ term }) => operandOf(term).startsWith(query)).map(({ term, description }) => ({ key: term, label: term, detail: description, term: operandOf(term) }));
  } else if (operator === 'channel' || operator === 'stream') {
    offers = sources
      .channels()
      .filter((channel) => channel.name.toLowerCase().includes(query))
      .map((channel) => ({ key: channel.name, label: `#${channel.name}`, term: quoted(channel.name) }));
  } else if (operator === 'topic') {
    const channel = namedChannel(sources, text.slice(0, caret - typed.length));
    offers = ((channel && sources.topics(channel)) ?? [])
      .filter((topic) => topic !== '' && topic.toLowerCase().includes(query))
      .map((topic) => ({ key: topic, label: topic, term: quoted(topic) }));
  } else if (operator === 'sender' || operator === 'dm' || operator === 'dm-including') {
    offers = sources
      .users()
      .filter((user) => user.full_name.toLowerCase().includes(query) || user.email.toLowerCase().startsWith(query))
      .map((user) => ({ key: user.email, label: user.full_name, detail: user.email, term: user.email }));
  } else {
    return [];
  }
  // A complete operand offers nothing: Enter searches.
  if (offers.some((offer) => offer.term.replace(/"/g, '').toLowerCase() === query.replace(/"/g, ''))) return [];
  return offers.map((offer) => replacing(text, caret - typed.length, caret, offer, true));
}

/** The channel a `channel:` term earlier in the text names, for its topics. */
function namedChannel(sources: SearchSources, text: string): Channel | undefined {
  const named = /(?:^|\s)(?:channel|stream):(?:"([^"]*)"|(\S+))/i.exec(text);
  const name = (named?.[1] ?? named?.[2])?.toLowerCase();
  return name === undefined ? undefined : sources.channels().find((channel) => channel.name.toLowerCase() === name);
}

/** What a free word starts: operators (`cha` -> `channel:`), filters (`star` -> `is:starred`), channels and people. */
function wordCompletions(sources: SearchSources, text: string, caret: number, word: string): SearchSuggestion[] {
  const negated = word.startsWith('-');
  const query = (negated ? word.slice(1) : word).toLowerCase();
  if (query === '') return [];
  const sign = negated ? '-' : '';
  const start = caret - word.length;
  const operators = OPERATORS.filter(({ term }) => term.startsWith(query)).map((filter) => replacing(text, start, caret, filterOffer(filter, sign), false));
  const filters = starters(sources.myEmail())
    .filter(({ term, description }) => term.startsWith(query) || operandOf(term).startsWith(query) || description.toLowerCase().startsWith(query))
    .flatMap((filter) => (negated ? excluding(filter) : [filter]));
  const channels: Filter[] = sources
    .channels()
    .filter((channel) => phraseMatch(query, channel.name))
    .map((channel) => ({ term: `channel:${quoted(channel.name)}`, description: `Channel ${channel.name}` }));
  const people: Filter[] = sources
    .users()
    .filter((user) => phraseMatch(query, user.full_name) || user.email.toLowerCase().startsWith(query))
    .flatMap((user) => [
      { term: `dm:${user.email}`, description: `Direct messages with ${user.full_name}` },
      { term: `sender:${user.email}`, description: `Sent by ${user.full_name}` },
    ]);
  return [...operators, ...[...filters, ...channels, ...people].map((filter) => replacing(text, start, caret, filterOffer(filter, sign), true))];
}

/** A filter negated, as upstream words it: "Exclude …", except that not resolved is "Unresolved topics". */
function excluding(filter: Filter): Filter[] {
  if (filter.term === '-is:resolved') return [];
  if (filter.term === 'is:resolved') return [{ term: 'is:resolved', description: 'Unresolved topics' }];
  return [{ term: filter.term, description: `Exclude ${filter.description.charAt(0).toLowerCase()}${filter.description.slice(1)}` }];
}

function unique(suggestions: SearchSuggestion[]): SearchSuggestion[] {
  const seen = new Set<string>();
  return suggestions.filter((suggestion) => !seen.has(suggestion.key) && seen.add(suggestion.key));
}
