import { LEADER_LOCK } from '../protocol/leader-protocol.ts';

/**
 * Elects one tab of the origin with a Web Lock that the leader holds until it closes; the
 * browser then grants it to the tab that has waited longest. Calls `onLead` once this tab holds
 * the lock, now or after other tabs have closed, and resolves whether this tab leads at once.
 */
export function electLeader(locks: LockManager, onLead: () => void): Promise<boolean> {
  const lead = (): Promise<never> => {
    onLead();
    return new Promise<never>(() => {});
  };
  return new Promise((resolve) => {
    void locks.request(LEADER_LOCK, { ifAvailable: true }, (lock) => {
      resolve(lock !== null);
      if (lock) return lead();
      void locks.request(LEADER_LOCK, lead);
      return undefined;
    });
  });
}
