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
