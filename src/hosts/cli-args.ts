import { parseArgs } from 'node:util';

export const USAGE = `usage: offline-realm serve [--port P] [--host H] [--scenario FILE] [--data DIR [--reset]] [--app [--app-dir DIR]]
       (in a checkout of this project: npm run serve -- [flags])

  --port P         TCP port to listen on (default 9991; 0 picks a free port)
  --host H         address to bind (default 127.0.0.1, loopback only)
  --scenario FILE  scenario JSON to start from (default: the demo realm, public/scenarios/demo.json)
  --data DIR       keep the realm in DIR across restarts; a DIR that already holds a realm
                   is reopened as it is, and --scenario is then refused unless --reset is given
  --reset          with --data: replace the realm in DIR by the scenario
  --app            also serve the built chat app (npm run build) on the same port, and print
                   the link that makes a browser a replica of this server (/?sync=...)
  --app-dir DIR    with --app: the built app in DIR instead of this project's dist/
  --help           print this text
`;

export interface ServeOptions {
  port: number;
  host: string;
  /** null: the default demo scenario. */
  scenario: string | null;
  /** null: in-memory only. */
  data: string | null;
  reset: boolean;
  /** null: the app is not served; else the directory of the built app (null dir: this project's dist/). */
  app: { dir: string | null } | null;
  help: boolean;
}

/** A command line that cannot be run; the CLI prints it with the usage text and exits 2. */
export class UsageError extends Error {}

const DEFAULT_PORT = 9991;

export function parseServeArgs(args: string[]): ServeOptions {
  const values = readFlags(args);
  if (values.reset && values.data === undefined) throw new UsageError('--reset needs --data DIR');
  if (values['app-dir'] !== undefined && !values.app) throw new UsageError('--app-dir needs --app');
  for (const name of ['host', 'scenario', 'data', 'app-dir'] as const) {
    if (values[name] === '') throw new UsageError(`--${name} needs a value`);
  }
  return {
    port: values.port === undefined ? DEFAULT_PORT : parsePort(values.port),
    host: values.host ?? '127.0.0.1',
    scenario: values.scenario ?? null,
    data: values.data ?? null,
    reset: values.reset ?? false,
    app: values.app ? { dir: values['app-dir'] ?? null } : null,
    help: values.help ?? false,
  };
}

function readFlags(args: string[]) {
  try {
    return parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        scenario: { type: 'string' },
        data: { type: 'string' },
        reset: { type: 'boolean' },
        app: { type: 'boolean' },
        'app-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    // parseArgs names the offending flag ("Unknown option '--prot'").
    throw new UsageError((error as Error).message);
  }
}

function parsePort(text: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--port must be an integer from 0 to 65535, not '${text}'`);
  return port;
}
