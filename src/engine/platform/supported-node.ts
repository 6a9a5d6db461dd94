/**
 * Imported first by every package entry, so an unsupported Node.js fails here with a clear
 * message instead of later, deep in a dependency (`Promise.withResolvers is not a function`).
 * In a browser there is no `process` and nothing is checked.
 */
const MINIMUM = [22, 12] as const;

const version = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
if (version) {
  const [major, minor] = version.split('.').map(Number);
  if (major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1])) {
    throw new Error(`offline-realm needs Node.js ${MINIMUM.join('.')} or newer; this is Node.js ${version}.`);
  }
}
