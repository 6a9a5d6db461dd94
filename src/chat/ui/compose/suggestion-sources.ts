import type { Channel, User } from '../../api/wire-types.ts';
import { emojiCharacter, POPULAR_EMOJI } from '../emoji.ts';
import { mentionSyntax } from '../../state/mention-syntax.ts';
import type { Suggestion, SuggestionSource } from './typeahead.tsx';

function matches(name: string, query: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith(query) || lower.split(/[\s._-]+/).some((word) => word.startsWith(query));
}

/** Topics of the chosen channel that start like the typed text (the whole field is the topic). */
export function topicSuggestions(topics: () => string[]): SuggestionSource {
  return (text) => {
    const query = text.trim().toLowerCase();
    return topics()
      .filter((topic) => topic.toLowerCase() !== query && (query === '' || topic.toLowerCase().includes(query)))
      .map((topic) => ({ key: topic, label: topic || '(no topic)', apply: () => ({ text: topic, caret: topic.length }) }));
  };
}

/**
 * People for the entry being typed in `To` (after its last comma), leaving out those `chosen`
 * already (the pills' entries); taking one ends the entry with their email and a comma, which
 * makes their pill.
 */
export function recipientSuggestions(users: () => User[], chosen: () => string[]): SuggestionSource {
  return (text, caret) => {
    const before = text.slice(0, caret);
    const start = before.lastIndexOf(',') + 1;
    const query = before.slice(start).trim().toLowerCase();
    if (!query) return [];
    const taken = new Set([...chosen(), ...text.split(',')].map((part) => part.trim().toLowerCase()));
    return users()
      .filter((user) => !taken.has(user.email.toLowerCase()) && (matches(user.full_name, query) || user.email.toLowerCase().startsWith(query)))
      .map((user) => ({
        key: String(user.user_id),
        label: user.full_name,
        detail: user.email,
        apply: () => {
          const head = `${text.slice(0, start)}${start > 0 ? ' ' : ''}${user.email}, `;
          return { text: `${head}${text.slice(caret).replace(/^[^,]*,?\s*/, '')}`, caret: head.length };
        },
      }));
  };
}

/**
 * A name being typed after `@` or `#` may hold spaces ("@Marcus R"), as upstream's: up to four
 * words, so a sentence typed after a lone `@` stops suggesting. Null when it is no name.
 */
function typedName(rest: string): string | null {
  if (rest.startsWith(' ') || rest.length > 50 || rest.split(' ').length > 4) return null;
  return rest.toLowerCase();
}

/** Replaces the typed token (from `start` to the caret) with `insert`. */
function replaceToken(text: string, start: number, caret: number, insert: string): { text: string; caret: number } {
  return { text: `${text.slice(0, start)}${insert}${text.slice(caret)}`, caret: start + insert.length };
}

/** The commands a message may start with, as upstream's compose box offers them after a leading `/`. */
const SLASH_COMMANDS = [
  { name: 'poll', detail: 'Create a poll: the question, then one option per line' },
  { name: 'todo', detail: 'Create a to-do list: the title, then one task per line' },
  { name: 'me', detail: 'Say what you are doing, in the third person' },
];

/** Upstream's wildcard mentions, and whom each notifies: in a DM only its recipients can be. */
const WILDCARDS = {
  channel: [
    { name: 'all', detail: 'Notify channel' },
    { name: 'everyone', detail: 'Notify channel' },
    { name: 'channel', detail: 'Notify channel' },
    { name: 'topic', detail: 'Notify topic' },
  ],
  dm: [
    { name: 'all', detail: 'Notify recipients' },
    { name: 'everyone', detail: 'Notify recipients' },
  ],
};

/** What the message's suggestions draw on. */
export interface ContentSources {
  users(): User[];
  /** The user groups I may mention. */
  groups(): { id: number; name: string; description: string }[];
  /** Whether the message goes to a DM (its wildcards notify recipients, not a channel). */
  isDm(): boolean;
  channels(): Channel[];
  /** The realm's active custom emoji, with their images' URLs. */
  customEmoji(): { name: string; image: string }[];
  /** Every Unicode emoji the server accepts: code and names. */
  serverEmoji(): { code: string; names: string[] }[];
}

/** Each emoji name once, custom and popular ones first, with what shows before it: its character or image. */
function emojiByName(sources: ContentSources): Map<string, { code: string } | { image: string }> {
  const byName = new Map<string, { code: string } | { image: string }>();
  for (const { name, image } of sources.customEmoji()) byName.set(name, { image });
  const unicode = [...POPULAR_EMOJI.map(({ name, code }) => ({ code, names: [name] })), ...sources.serverEmoji()];
  for (const { code, names } of unicode) for (const name of names) if (!byName.has(name)) byName.set(name, { code });
  return byName;
}

/**
 * In the message: `/` at its start suggests the commands (`/poll`, `/todo`, `/me`), `@name`
 * people (`@**Full Name**`), then user groups (`@*group*`, and only them after `@*`) and
 * wildcards (`@**all**`), `#name` channels (`#**channel**`), `:name` (two letters or more)
 * emoji (`:name:`), as upstream's compose box does.
 */
export function contentSuggestions(sources: ContentSources): SuggestionSource {
  return (text, caret) => {
    const before = text.slice(0, caret);
    const command = /^\/([a-z]*)$/.exec(before);
    if (command) {
      return SLASH_COMMANDS.filter(({ name }) => name.startsWith(command[1]) && name !== command[1]).map<Suggestion>(({ name, detail }) => ({
        key: `/${name}`,
        label: `/${name}`,
        detail,
        apply: () => replaceToken(text, 0, caret, `/${name} `),
      }));
    }
    // `@*` is how a group mention starts: then groups only.
    const mention = /(?:^|\s)@(\*\*|\*)?([^\n@*]*)$/.exec(before);
    const mentionQuery = mention && typedName(mention[2]);
    if (mention && mentionQuery !== null) {
      const groupsOnly = mention[1] === '*';
      const query = mentionQuery;
      const start = caret - mention[0].trimStart().length;
      const everyone = sources.users();
      const people = everyone
        .filter((user) => matches(user.full_name, query))
        .map<Suggestion>((user) => ({
          key: `u${user.user_id}`,
          label: user.full_name,
          detail: user.email,
          apply: () => replaceToken(text, start, caret, `${mentionSyntax(user, everyone)} `),
        }));
      const groups = sources
        .groups()
        .filter((group) => matches(group.name, query))
        .map<Suggestion>((group) => ({
          key: `g${group.id}`,
          label: group.name,
          detail: group.description || 'User group',
          apply: () => replaceToken(text, start, caret, `@*${group.name}* `),
        }));
      const wildcards = WILDCARDS[sources.isDm() ? 'dm' : 'channel']
        .filter(({ name }) => name.startsWith(query))
        .map<Suggestion>(({ name, detail }) => ({ key: `w${name}`, label: name, detail, apply: () => replaceToken(text, start, caret, `@**${name}** `) }));
      return groupsOnly ? groups : [...people, ...groups, ...wildcards];
    }
    const channel = /(?:^|\s)#(?:\*\*)?([^\n#*]*)$/.exec(before);
    const channelQuery = channel && typedName(channel[1]);
    if (channel && channelQuery !== null) {
      const query = channelQuery;
      const start = caret - channel[0].trimStart().length;
      return sources
        .channels()
        .filter((c) => matches(c.name, query))
        .map<Suggestion>((c) => ({ key: `c${c.stream_id}`, label: `#${c.name}`, apply: () => replaceToken(text, start, caret, `#**${c.name}** `) }));
    }
    const emoji = /(?:^|\s):([a-z0-9_+-]{2,})$/.exec(before);
    if (emoji) {
      const query = emoji[1];
      const start = caret - query.length - 1;
      return [...emojiByName(sources)]
        .filter(([name]) => matches(name, query))
        .map<Suggestion>(([name, emoji]) => ({
          key: `e${name}`,
          label: `:${name}:`,
          glyph: 'image' in emoji ? emoji : { text: emojiCharacter(emoji.code) },
          apply: () => replaceToken(text, start, caret, `:${name}: `),
        }));
    }
    return [];
  };
}
