/** The character of a Unicode emoji code as the API writes it (`1f44d`, `1f468-200d-1f4bb`). */
export function emojiCharacter(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((part) => parseInt(part, 16)));
  } catch {
    return `:${code}:`;
  }
}

/** Emoji offered first in the picker, by their Zulip names and codes. */
export const POPULAR_EMOJI: { name: string; code: string }[] = [
  { name: '+1', code: '1f44d' },
  { name: 'tada', code: '1f389' },
  { name: 'smile', code: '1f604' },
  { name: 'heart', code: '2764' },
  { name: 'working_on_it', code: '1f6e0' },
  { name: 'octopus', code: '1f419' },
  { name: 'rocket', code: '1f680' },
  { name: 'eyes', code: '1f440' },
  { name: 'check', code: '2705' },
  { name: 'thinking', code: '1f914' },
  { name: 'laughing', code: '1f606' },
  { name: 'clap', code: '1f44f' },
  { name: 'fire', code: '1f525' },
  { name: 'pray', code: '1f64f' },
  { name: 'sob', code: '1f62d' },
  { name: 'slight_smile', code: '1f642' },
  { name: 'wave', code: '1f44b' },
  { name: 'star', code: '2b50' },
  { name: 'coffee', code: '2615' },
  { name: 'bug', code: '1f41b' },
  { name: 'sparkles', code: '2728' },
  { name: 'muscle', code: '1f4aa' },
  { name: '-1', code: '1f44e' },
  { name: 'question', code: '2753' },
];
