#!/usr/bin/env node
import '../engine/supported-node.ts';
import { resolve } from 'node:path';
import { readCheckedScenario } from './scenario-file.ts';
import { reportFailure, serve } from './serve-cli.ts';

/** `npx offline-realm <command>` (the package's bin) and `npm run serve` here. */

const USAGE = `usage: offline-realm <command>

  serve [--port P] [--host H] [--scenario FILE] [--data DIR [--reset]]
                   run the server (offline-realm serve --help for the flags)
  validate FILE    check a scenario file; prints the JSON path of the first fault
  help             print this text
`;

async function validate(args: string[]): Promise<void> {
  if (args.length !== 1) {
    process.stderr.write(`offline-realm: validate takes one scenario file\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  // npm runs scripts from the package root; relative paths mean the caller's directory.
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), args[0]);
  const scenario = (await readCheckedScenario(path)) as { users: unknown[]; channels?: unknown[]; messages?: unknown[] };
  const count = (list: unknown[] | undefined, noun: string) => `${list?.length ?? 0} ${noun}${list?.length === 1 ? '' : 's'}`;
  process.stdout.write(
    `${path}: a valid scenario (${count(scenario.users, 'user')}, ${count(scenario.channels, 'channel')}, ${count(scenario.messages, 'message')})\n`,
  );
}

const [command, ...args] = process.argv.slice(2);
if (command === 'serve') serve(args).catch(reportFailure);
else if (command === 'validate') validate(args).catch(reportFailure);
else if (command === 'help' || command === '--help' || command === undefined) process.stdout.write(USAGE);
else {
  process.stderr.write(`offline-realm: unknown command "${command}"\n\n${USAGE}`);
  process.exitCode = 2;
}
