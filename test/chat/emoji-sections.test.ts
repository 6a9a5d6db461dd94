import { describe, expect, test } from 'vitest';
import { serverEmojiList } from '../../src/chat/state/server-emoji.ts';
import { emojiSections } from '../../src/chat/ui/emoji-sections.ts';

const CODE_TO_NAMES = { '2122': ['tm'], '1f600': ['grinning'], '1f419': ['octopus'], '1f3c1': ['checkered_flag'] };

describe('the picker’s sections from the server’s emoji data', () => {
  test('Popular, then the categories in upstream’s order whatever the file’s, each in its order, then Custom', () => {
    const server = serverEmojiList({
      code_to_names: CODE_TO_NAMES,
      emoji_catalog: { Flags: ['1f3c1'], Symbols: ['2122'], 'Animals & Nature': ['1f419'], 'Smileys & Emotion': ['1f600'] },
    });
    const lakeside = { key: 'realm:1', name: 'lakeside', names: ['lakeside'], code: '1', type: 'realm_emoji', image: '/lakeside.png' };
    const sections = emojiSections([lakeside], server);
    expect(sections.map((section) => section.name)).toEqual(['Popular', 'Smileys & Emotion', 'Animals & Nature', 'Symbols', 'Flags', 'Custom']);
    expect(sections[3].emoji).toEqual([{ key: '2122', name: 'tm', names: ['tm'], code: '2122', type: 'unicode_emoji' }]);
  });

  test('from a server without categories, every emoji after Popular in the file’s order', () => {
    const sections = emojiSections([], serverEmojiList({ code_to_names: CODE_TO_NAMES }));
    expect(sections.map((section) => section.name)).toEqual(['Popular', 'Other emoji']);
    expect(sections[1].emoji.map((emoji) => emoji.name)).toEqual(['tm', 'grinning', 'octopus', 'checkered_flag']);
  });
});
