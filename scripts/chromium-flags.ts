/** Debian's Chromium (scripts/ensure-chromium.sh installs it); no browser build is ever downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless as root on a machine whose only network is the package registries. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
