import { badRequest } from '../errors/api-error.ts';

/** Upstream's palette for a new subscription's personal color. */
const CHANNEL_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

/** The first palette color the user does not use yet; once all are used, they repeat. */
export function pickColor(usedColors: Iterable<string>): string {
  const used = new Set(usedColors);
  return CHANNEL_COLORS.find((color) => !used.has(color)) ?? CHANNEL_COLORS[used.size % CHANNEL_COLORS.length];
}

/** Upstream's hex color rule for personal channel colors; `name` is the parameter's, for the error. */
export function checkColor(name: string, value: string): string {
  if (!/^#[a-fA-F0-9]{3,6}$/.test(value)) throw badRequest(`${name} is not a valid hex color code`);
  return value;
}
