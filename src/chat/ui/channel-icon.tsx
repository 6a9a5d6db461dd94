/**
 * A channel's mark before its name: `#`, or a padlock for a private channel. The padlock is
 * drawn, not the 🔒 character: systems without a colour emoji font showed that as an empty box.
 */
export function ChannelIcon({ private: isPrivate }: { private: boolean | undefined }) {
  if (!isPrivate) return <>#</>;
  return (
    <svg class="channel-lock" viewBox="0 0 16 16" width="0.85em" height="0.85em" role="img" aria-label="Private">
      <path fill="currentColor" d="M4.5 7V5a3.5 3.5 0 0 1 7 0v2H13v8H3V7zm1.8 0h3.4V5a1.7 1.7 0 0 0-3.4 0z" />
    </svg>
  );
}
