import { networkInterfaces } from 'node:os';

/**
 * The links a trainer hands out (`serve --app`): each opens the app served here as a replica of
 * this server. Bound to every address (0.0.0.0, ::), one per IPv4 address of this machine's
 * network interfaces, loopback last; else the bound address only.
 */
export function replicaLinks(host: string, port: number): string[] {
  const everywhere = host === '0.0.0.0' || host === '::';
  const lan = Object.values(networkInterfaces())
    .flat()
    .filter((address) => address !== undefined && address.family === 'IPv4' && !address.internal)
    .map((address) => address!.address);
  const addresses = everywhere ? [...lan, '127.0.0.1'] : [host];
  return addresses.map((address) => {
    const base = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
    return `${base}/?sync=${base}`;
  });
}

export function replicaLinksText(host: string, port: number): string {
  const links = replicaLinks(host, port).map((link) => `  ${link}\n`);
  return `the app is served here; each trainee opens (in their own browser) the link for their network:\n${links.join('')}`;
}
