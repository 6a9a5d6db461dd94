import { describe, expect, test } from 'vitest';
import type { User } from '../../src/chat/api/wire-types.ts';
import { type ContentSources, contentSuggestions } from '../../src/chat/ui/compose/suggestion-sources.ts';

const person = (user_id: number, full_name: string) => ({ user_id, full_name, email: `${user_id}@lakeside.test` }) as User;

function suggest(text: string, isDm = false) {
  const sources: ContentSources = {
    users: () => [person(8, 'Olivia Park'), person(20, 'Dana Designer')],
    groups: () => [{ id: 30, name: 'designers', description: 'Pixels' }],
    isDm: () => isDm,
    channels: () => [],
    customEmoji: () => [],
    serverEmoji: () => [],
  };
  return contentSuggestions(sources)(text, text.length).map((suggestion) => ({ label: suggestion.label, detail: suggestion.detail, text: suggestion.apply().text }));
}

describe('mentions suggested in the message', () => {
  test('people first, then the user groups I may mention, inserted as a group mention', () => {
    expect(suggest('Ask @d')).toEqual([
      { label: 'Dana Designer', detail: '20@lakeside.test', text: 'Ask @**Dana Designer** ' },
      { label: 'designers', detail: 'Pixels', text: 'Ask @*designers* ' },
    ]);
  });

  test('a name two people share is written with the id, as upstream writes it; a name of one alone without', () => {
    const sources: ContentSources = {
      users: () => [{ ...person(20, 'Dana Designer'), is_active: true }, { ...person(21, 'Dana Designer'), is_active: true }, { ...person(8, 'Olivia Park'), is_active: true }],
      groups: () => [],
      isDm: () => false,
      channels: () => [],
      customEmoji: () => [],
      serverEmoji: () => [],
    };
    const texts = (text: string) => contentSuggestions(sources)(text, text.length).map((suggestion) => suggestion.apply().text);
    expect(texts('Ask @dana')).toEqual(['Ask @**Dana Designer|20** ', 'Ask @**Dana Designer|21** ']);
    expect(texts('Ask @oli')).toEqual(['Ask @**Olivia Park** ']);
  });

  test('@* starts a group mention: groups only', () => {
    expect(suggest('Ask @*d')).toEqual([{ label: 'designers', detail: 'Pixels', text: 'Ask @*designers* ' }]);
  });

  test('a name may be typed with its spaces, up to four words', () => {
    expect(suggest('Ask @Olivia P').map((s) => s.text)).toEqual(['Ask @**Olivia Park** ']);
    expect(suggest('Ask @dana d').map((s) => s.text)).toEqual(['Ask @**Dana Designer** ']);
    expect(suggest('Ask @Olivia X')).toEqual([]);
    expect(suggest('email me @ o')).toEqual([]);
    expect(suggest('@olivia is here and she is')).toEqual([]);
    // A finished mention is no name being typed.
    expect(suggest('@**Olivia Park** and d')).toEqual([]);
  });

  test('wildcards by what they notify: the channel or the topic, or in a DM its recipients', () => {
    expect(suggest('@t')).toEqual([{ label: 'topic', detail: 'Notify topic', text: '@**topic** ' }]);
    expect(suggest('hey @a')).toEqual([{ label: 'all', detail: 'Notify channel', text: 'hey @**all** ' }]);
    expect(suggest('hey @a', true)).toEqual([{ label: 'all', detail: 'Notify recipients', text: 'hey @**all** ' }]);
    expect(suggest('@c', true)).toEqual([]);
  });
});

test('an emoji suggestion shows its character before its name, a custom emoji its image', () => {
  const suggest = contentSuggestions({
    users: () => [],
    groups: () => [],
    isDm: () => false,
    channels: () => [],
    customEmoji: () => [{ name: 'octopus_party', image: '/party.png' }],
    serverEmoji: () => [{ code: '1f419', names: ['octopus'] }],
  });
  expect(suggest('Look :octo', 10).map(({ label, glyph }) => ({ label, glyph }))).toEqual([
    { label: ':octopus_party:', glyph: { image: '/party.png' } },
    { label: ':octopus:', glyph: { text: '🐙' } },
  ]);
});
