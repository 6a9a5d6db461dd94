import type { PresenceStatus } from '../state/presence.ts';

const LABELS: Record<PresenceStatus, string> = { active: 'Active', idle: 'Idle', offline: 'Offline' };

/** Upstream's presence circle: filled green when active, orange when idle, hollow when offline; named for screen readers. */
export function PresenceDot({ status }: { status: PresenceStatus }) {
  return <span class={`presence-dot ${status}`} role="img" aria-label={LABELS[status]} title={LABELS[status]} />;
}

export const presenceLabel = (status: PresenceStatus): string => LABELS[status];
