import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSUMER_PACKAGE, NODE_SCRIPT, TSCONFIG, TYPESCRIPT_FILE } from './consumer-files.ts';

/**
 * The package as a new user gets it: `npm pack`, installed into a fresh project beside msw 3,
 * TypeScript and Node 22, then used from plain Node, from strict TypeScript and through its bin.
 */

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
const NODE_20 = '/usr/bin/node';
const ours = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

let consumer: string;
// INIT_CWD is what npm sets for the directory it was started in: here, the consumer's.
const consumerEnv = () => ({ ...process.env, INIT_CWD: consumer });
const inConsumer = (file: string, args: string[], node = process.execPath) =>
  run(node, [file, ...args], { cwd: consumer, encoding: 'utf8', env: consumerEnv() });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the command to fail');
    },
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

beforeAll(async () => {
  consumer = mkdtempSync(join(tmpdir(), 'offline-realm-consumer-'));
  const packed = await run('npm', ['pack', '--silent', '--pack-destination', consumer], { cwd: ROOT, encoding: 'utf8' });
  const tarball = join(consumer, packed.stdout.trim().split('\n').at(-1)!);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify(CONSUMER_PACKAGE));
  await run(
    'npm',
    [
      'install', '--no-audit', '--no-fund', '--prefer-offline', tarball, 'msw@3',
      `typescript@${ours.devDependencies.typescript}`, `@types/node@${ours.devDependencies['@types/node']}`, 'node22@npm:node@22',
    ],
    { cwd: consumer, encoding: 'utf8' },
  );
  writeFileSync(join(consumer, 'check.mjs'), NODE_SCRIPT);
  writeFileSync(join(consumer, 'index.ts'), TYPESCRIPT_FILE);
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(TSCONFIG));
}, 240_000);

afterAll(() => rmSync(consumer, { recursive: true, force: true }));

const EXPECTED_RUN = {
  entries: ['function', 'function', 'function', 'function', 'function'],
  status: 200,
  realm: 'Lakeside Labs',
  featureLevel: expect.any(Number),
  scenarioRealm: 'Offline Realm',
};

describe('the packed package in a new project', () => {
  it('is imported, every entry, by plain Node 24, and answers a request through msw', async () => {
    const { stdout } = await inConsumer('check.mjs', []);
    expect(JSON.parse(stdout)).toEqual(EXPECTED_RUN);
  });

  it('is imported, every entry, by plain Node 22', async () => {
    const { stdout } = await inConsumer('check.mjs', [], join(consumer, 'node_modules/node22/bin/node'));
    expect(JSON.parse(stdout)).toEqual(EXPECTED_RUN);
  });

  it('tells a user of an older Node which version it needs', async () => {
    const { stderr } = await failure(inConsumer('check.mjs', [], NODE_20));
    expect(stderr).toMatch(/offline-realm needs Node\.js 22\.12 or newer; this is Node\.js 20\./);
  });

  it('type-checks in a strict TypeScript project without skipLibCheck', async () => {
    const { stdout } = await inConsumer('node_modules/typescript/bin/tsc', ['-p', '.']);
    expect(stdout).toBe('');
  });

  it('validates a scenario from the bin, naming the JSON path of the first fault', async () => {
    writeFileSync(join(consumer, 'good.json'), JSON.stringify({ users: [{ email: 'a@x.test', full_name: 'A', role: 100 }] }));
    writeFileSync(join(consumer, 'bad.json'), JSON.stringify({ users: [{ email: 'a@x.test', full_name: 'A', role: 7 }] }));
    const bin = 'node_modules/.bin/offline-realm';
    expect((await inConsumer(bin, ['validate', 'good.json'])).stdout).toBe(`${join(consumer, 'good.json')}: a valid scenario (1 user, 0 channels, 0 messages)\n`);
    const bad = await failure(inConsumer(bin, ['validate', 'bad.json']));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${join(consumer, 'bad.json')}: $.users[0].role`);
  });

  it('serves the demo realm from the bin', async () => {
    const child = spawn(process.execPath, ['node_modules/.bin/offline-realm', 'serve', '--port', '0'], { cwd: consumer, env: consumerEnv() });
    try {
      const lines = createInterface({ input: child.stdout });
      const listening = await new Promise<string>((resolve) => lines.on('line', (line) => line.startsWith('listening on ') && resolve(line)));
      const url = listening.slice('listening on '.length);
      const body = await (await fetch(`${url}/api/v1/server_settings`)).json();
      expect(body).toMatchObject({ result: 'success', realm_name: 'Lakeside Labs' });
    } finally {
      child.kill();
    }
  });

  it('publishes the scenario format as JSON Schema that the shipped scenarios satisfy', () => {
    const schema = JSON.parse(readFileSync(join(consumer, 'node_modules/offline-realm/lib/scenario.schema.json'), 'utf8'));
    const validate = new Ajv2020({ strict: false }).compile(schema);
    for (const name of ['demo', 'training-basics']) {
      const scenario = JSON.parse(readFileSync(join(ROOT, `public/scenarios/${name}.json`), 'utf8'));
      expect(validate(scenario) ? [] : validate.errors, name).toEqual([]);
    }
    expect(validate({ users: [{ email: 'a@x.test', full_name: 'A', role: 7 }] })).toBe(false);
  });
});
