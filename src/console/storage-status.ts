/** How often the console re-reads the estimate: the realm grows as messages are sent. */
const REFRESH_MS = 10_000;

interface StorageStatus {
  usage: number;
  quota: number;
  /** Granted by `navigator.storage.persist()`: the browser will not evict the realm to free space. */
  persisted: boolean;
}

/**
 * Asks once that the browser keep this origin's data (the realm in IndexedDB) under storage
 * pressure, then shows the storage estimate and keeps it current. Chromium grants or refuses
 * without a prompt; other browsers may ask the user.
 */
export async function followStorage(show: (text: string) => void): Promise<void> {
  // StorageManager exists only in secure contexts: a plain-http LAN address has none.
  if (!('storage' in navigator)) {
    show('Storage: not reported here (the browser tells it only to https or localhost pages)');
    return;
  }
  const persisted = await navigator.storage.persist();
  const refresh = async () => show(describeStorage({ ...(await estimate()), persisted }));
  await refresh();
  setInterval(() => void refresh(), REFRESH_MS);
}

async function estimate(): Promise<{ usage: number; quota: number }> {
  const { usage = 0, quota = 0 } = await navigator.storage.estimate();
  return { usage, quota };
}

function describeStorage({ usage, quota, persisted }: StorageStatus): string {
  const kept = persisted ? 'persistent' : 'best effort: the browser may evict it when space runs low';
  return `Storage: ${formatBytes(usage)} used of ${formatBytes(quota)} (${kept})`;
}

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

function formatBytes(bytes: number): string {
  const exponent = Math.min(UNITS.length - 1, bytes < 1000 ? 0 : Math.floor(Math.log10(bytes) / 3));
  const format = new Intl.NumberFormat('en', { style: 'unit', unit: UNITS[exponent], unitDisplay: 'short', maximumFractionDigits: 1 });
  return format.format(bytes / 1000 ** exponent);
}
