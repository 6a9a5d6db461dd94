/** Where this origin's server runs: the same choice of worker that boot.ts makes. */
export function serverLocation(): string {
  const worker =
    typeof SharedWorker === 'function'
      ? 'a SharedWorker shared by every tab'
      : 'a dedicated worker of one elected tab (this browser has no SharedWorker)';
  return `Runs in this browser at ${location.origin}: the engine in ${worker}, over IndexedDB; the Service Worker answers /api/v1/… from it.`;
}
