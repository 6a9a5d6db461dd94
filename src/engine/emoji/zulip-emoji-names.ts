/**
 * Names Zulip users type that emoji-datasource spells differently (Zulip keeps its own name
 * table). Each maps to the emoji's code; the catalogue adds them as aliases, so reactions and
 * `:name:` written for a real Zulip server work here too.
 */
export const ZULIP_EMOJI_NAMES: Readonly<Record<string, string>> = {
  thinking: '1f914',
  poop: '1f4a9',
  working_on_it: '1f6e0',
  check: '2705',
  check_mark: '2714',
  cross_mark: '274c',
  thumbs_up: '1f44d',
  thumbs_down: '1f44e',
  slight_smile: '1f642',
  frown: '1f641',
  neutral: '1f610',
  upside_down: '1f643',
  big_smile: '1f604',
  rolling_on_the_floor_laughing: '1f923',
  zipper_mouth: '1f910',
  nerd: '1f913',
  hug: '1f917',
  hugging: '1f917',
  lightbulb: '1f4a1',
  exclamation: '2757',
  question: '2753',
  heart_eyes: '1f60d',
  party_popper: '1f389',
  sweat: '1f613',
  star_struck: '1f929',
  mind_blown: '1f92f',
  shush: '1f92b',
  angry: '1f620',
};
