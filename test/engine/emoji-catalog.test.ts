import { describe, expect, it } from 'vitest';
import {
  serviceExtraEmoji,
  unicodeEmojiByCode,
  unicodeEmojiByName,
} from '../../src/engine/emoji/emoji-catalog.ts';

describe('the unicode emoji catalogue', () => {
  it('finds an emoji by its canonical name', () => {
    expect(unicodeEmojiByName('+1')).toEqual({ name: '+1', code: '1f44d', aliases: ['thumbsup', 'thumbs_up'] });
  });

  it('finds the same emoji by any of its aliases', () => {
    expect(unicodeEmojiByName('thumbsup')).toBe(unicodeEmojiByName('+1'));
    expect(unicodeEmojiByName('poop')?.code).toBe('1f4a9');
  });

  it('finds an emoji by its code, in any case', () => {
    expect(unicodeEmojiByCode('1f44d')?.name).toBe('+1');
    expect(unicodeEmojiByCode('1F44D')?.name).toBe('+1');
  });

  it('writes codes as lowercase dash-separated codepoints without fe0f', () => {
    expect(unicodeEmojiByName('heart')?.code).toBe('2764');
    expect(unicodeEmojiByName('hash')?.code).toBe('0023-20e3');
    expect(unicodeEmojiByName('male-technologist')?.code).toBe('1f468-200d-1f4bb');
  });

  it('finds a zero-width-joiner sequence by its code, with or without fe0f', () => {
    expect(unicodeEmojiByCode('1f937-200d-2640')?.name).toBe('woman-shrugging');
    expect(unicodeEmojiByCode('1f937-200d-2640-fe0f')?.name).toBe('woman-shrugging');
  });

  it('knows nothing of unknown names and codes', () => {
    expect(unicodeEmojiByName('not_an_emoji')).toBeUndefined();
    expect(unicodeEmojiByCode('ffffff')).toBeUndefined();
  });

  it('does not offer skin-tone modifiers as emoji', () => {
    expect(unicodeEmojiByName('skin-tone-2')).toBeUndefined();
  });
});

describe('the service extra emoji', () => {
  it('is just "zulip"', () => {
    expect(serviceExtraEmoji('zulip')).toEqual({ name: 'zulip', code: 'zulip' });
    expect(serviceExtraEmoji('octopus')).toBeUndefined();
  });
});

describe('Zulip emoji names', () => {
  it('resolves names Zulip uses that emoji-datasource spells differently', () => {
    expect(unicodeEmojiByName('thinking')?.code).toBe('1f914');
    expect(unicodeEmojiByName('working_on_it')?.code).toBe('1f6e0');
    expect(unicodeEmojiByName('thumbs_up')?.code).toBe('1f44d');
  });
});
