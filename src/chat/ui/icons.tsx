/**
 * Line icons drawn in the text's colour, for buttons that keep their words beside them (or for
 * screen readers only where the row is narrow): SVG, since emoji glyphs depend on the fonts a
 * machine has.
 */
const PATHS = {
  /** Mark as read: two checks. */
  read: 'M2 12.5l4.5 4.5L15 8 M11 16l1 1 9-9',
  /** Mute: a bell struck through. */
  mute: 'M6 15.5V11a6 6 0 0 1 9.5-4.9 M18 11v4.5l2 2H8.5 M10 20.5a2 2 0 0 0 4 0 M3 3l18 18',
  /** Follow: a ringing bell. */
  follow: 'M6 15.5V11a6 6 0 0 1 12 0v4.5l2 2H4z M10 20.5a2 2 0 0 0 4 0 M2.5 8A9 9 0 0 1 5 3.5 M21.5 8A9 9 0 0 0 19 3.5',
  /** Resolve: a check in a circle. */
  resolve: 'M12 3a9 9 0 1 1 0 18 9 9 0 0 1 0-18z M8 12.5l3 3 5-6',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg class="icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}
