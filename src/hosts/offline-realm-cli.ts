#!/usr/bin/env node
import '../engine/platform/supported-node.ts';
import { resolve } from 'node:path';
import { InitError, init } from './init-cli.ts';
import { readCheckedScenario } from './scenario-file.ts';
import { reportFailure, serve } from './serve-cli.ts';

/** `npx offline-realm <command>` (the package's bin) and `npm run serve` here. */

const USAGE = `usage: offline-realm <command>

  serve [--port P] [--host H] [--scenario FILE] [--data DIR [--reset]] [--app]
                   run the server (offline-realm serve --help for the flags)
  validate FILE    check a scenario file; prints the JSON path of the first fault
  init DIR         copy the in-browser server's worker files into DIR, the folder your site
                   serves at its root (e.g. public/), for startRealm from offline-realm/browser
  help             print this text
`;

// npm runs scripts from the package root; relative paths mean the caller's directory.
const callerDir = () => process.env.INIT_CWD ?? process.cwd();

async function validate(args: string[]): Promise<void> {
  if (args.length !== 1) {
    process.stderr.write(`offline-realm: validate takes one scenario file\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const path = resolve(callerDir(), args[0]);
  const scenario = (await readCheckedScenario(path)) as { users: unknown[]; channels?: unknown[]; messages?: unknown[] };
  const count = (list: unknown[] | undefined, noun: string) => `${list?.length ?? 0} ${noun}${list?.length === 1 ? '' : 's'}`;
  process.stdout.write(
    `${path}: a valid scenario (${count(scenario.users, 'user')}, ${count(scenario.channels, 'channel')}, ${count(scenario.messages, 'message')})\n`,
  );
}

async function initCommand(args: string[]): Promise<void> {
  if (args.length !== 1) {
    process.stderr.write(`offline-realm: init takes one folder, e.g. init public/\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  try {
    await init(args[0], callerDir());
  } catch (error) {
    if (!(error instanceof InitError)) throw error;
    process.stderr.write(`offline-realm: ${error.message}\n`);
    process.exitCode = 1;
  }
}

const [command, ...args] = process.argv.slice(2);
if (command === 'serve') serve(args).catch(reportFailure);
else if (command === 'validate') validate(args).catch(reportFailure);
else if (command === 'init') initCommand(args).catch(reportFailure);
else if (command === 'help' || command === '--help' || command === undefined) process.stdout.write(USAGE);
else {
  process.stderr.write(`offline-realm: unknown command "${command}"\n\n${USAGE}`);
  process.exitCode = 2;
}
