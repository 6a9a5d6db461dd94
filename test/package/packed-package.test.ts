import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { type Browser, chromium, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium-flags.ts';
import {
  APP_SCRIPT, BROWSER_SCENARIO, CONSUMER_PACKAGE, FAULTY_START_SCRIPT, NODE_SCRIPT, pageWith, TSCONFIG, TYPESCRIPT_FILE,
} from './consumer-files.ts';
import { type StaticServer, serveStatic } from './static-server.ts';

/**
 * The package as a new user gets it: `npm pack`, installed into a fresh project beside msw 3,
 * TypeScript and Node 22, then used from plain Node, from strict TypeScript, through its bin,
 * and in Chromium from the page of a tiny app of that project.
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

// A whole node_modules (two Node binaries among it) on a busy disk may take more than 10 s.
afterAll(() => rmSync(consumer, { recursive: true, force: true }), 60_000);

/** The README's blocks marked as run by this file, in order: their language and code. */
function readmeSnippets(): { language: string; code: string }[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/<!-- test\/package runs this block[^>]*-->\n```(\w+)\n([\s\S]*?)\n```/g)].map((match) => ({
    language: match[1],
    code: match[2],
  }));
}

const EXPECTED_RUN = {
  entries: ['function', 'function', 'function', 'function', 'function', 'function'],
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

  it('type-checks with the settings `tsc --init` writes (exactOptionalPropertyTypes, noUncheckedIndexedAccess, ...)', async () => {
    const project = join(consumer, 'init-defaults');
    mkdirSync(project);
    writeFileSync(join(project, 'index.ts'), TYPESCRIPT_FILE);
    await run(process.execPath, [join(consumer, 'node_modules/typescript/bin/tsc'), '--init'], { cwd: project, encoding: 'utf8' });
    const { stdout } = await inConsumer('node_modules/typescript/bin/tsc', ['-p', 'init-defaults', '--noEmit']);
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

  it("runs the README's msw snippet as it is, printing what its comment says", async () => {
    const [snippet] = readmeSnippets().filter((block) => block.language === 'ts');
    writeFileSync(join(consumer, 'readme-msw.mts'), snippet.code);
    const printed = [...snippet.code.matchAll(/\/\/ prints: (.*)$/gm)].map((match) => `${match[1]}\n`).join('');
    expect(printed).not.toBe('');
    expect((await inConsumer('readme-msw.mts', [])).stdout).toBe(printed);
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

describe('offline-realm/browser in a page of a new project', () => {
  const BROWSER_WAIT_MS = 30_000;
  let initOutput: string;
  let site: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    const publicDir = join(consumer, 'public');
    initOutput = (await run('npx', ['--no', 'offline-realm', 'init', 'public/'], { cwd: consumer, encoding: 'utf8', env: consumerEnv() })).stdout;
    writeFileSync(join(publicDir, 'prototype-realm.json'), JSON.stringify(BROWSER_SCENARIO));
    writeFileSync(join(publicDir, 'index.html'), pageWith('app.js'));
    writeFileSync(join(publicDir, 'app.js'), APP_SCRIPT);
    writeFileSync(join(publicDir, 'faulty.html'), pageWith('faulty.js'));
    writeFileSync(join(publicDir, 'faulty.js'), FAULTY_START_SCRIPT);
    // The README's page snippet as it is, then one line that shows what its variables hold.
    const [snippet] = readmeSnippets().filter((block) => block.language === 'js');
    writeFileSync(join(publicDir, 'my-realm.json'), JSON.stringify(BROWSER_SCENARIO));
    writeFileSync(join(publicDir, 'readme.html'), pageWith('readme.js'));
    writeFileSync(
      join(publicDir, 'readme.js'),
      `${snippet.code}\ndocument.getElementById('result').textContent = JSON.stringify({ status: me.status, email: (await me.json()).email });\n`,
    );
    site = await serveStatic([
      ['/node_modules/', join(consumer, 'node_modules')],
      ['/', publicDir],
    ]);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  /** Opens `path` in a fresh profile and reads what the page's script showed. */
  async function resultOf(path: string): Promise<unknown> {
    const context = await browser.newContext();
    try {
      const page: Page = await context.newPage();
      await page.goto(`${site.origin}${path}`);
      const result = page.locator('#result');
      await result.filter({ hasText: /./ }).waitFor({ timeout: BROWSER_WAIT_MS });
      return JSON.parse((await result.textContent()) ?? '');
    } finally {
      await context.close();
    }
  }

  it('init copies the two worker files into the public folder and says so', () => {
    expect(initOutput).toMatch(/^wrote public\/offline-realm-sw\.js\nwrote public\/offline-realm-engine\.js\n/);
    expect(readdirSync(join(consumer, 'public')).filter((name) => name.startsWith('offline-realm-')).sort()).toEqual([
      'offline-realm-engine.js',
      'offline-realm-sw.js',
    ]);
    const built = join(consumer, 'node_modules/offline-realm/lib/browser/offline-realm-sw.js');
    expect(readFileSync(join(consumer, 'public/offline-realm-sw.js'), 'utf8')).toBe(readFileSync(built, 'utf8'));
  });

  it('init without a folder is a usage error', async () => {
    const refused = await failure(run('npx', ['--no', 'offline-realm', 'init'], { cwd: consumer, encoding: 'utf8', env: consumerEnv() }));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^offline-realm: init takes one folder, e\.g\. init public\/\n\nusage: offline-realm <command>/);
  });

  it("answers the page's own fetch('/api/v1/...') from the engine, on a fresh profile, with the realm it asked for", async () => {
    expect(await resultOf('/')).toEqual({
      realm: { name: 'Prototype Realm', users: ['Ada Lovelace', 'Alan Turing'] },
      settings: { status: 200, realm_name: 'Prototype Realm' },
      me: { status: 200, result: 'success', email: 'ada@proto.test', full_name: 'Ada Lovelace', role: 100 },
    });
  }, 60_000);

  it("runs the README's page snippet as it is: the first user of my-realm.json calls the API", async () => {
    expect(await resultOf('/readme.html')).toEqual({ status: 200, email: 'ada@proto.test' });
  }, 60_000);

  it('says which worker file is missing and how to copy it, and what is wrong with a faulty scenario', async () => {
    const fix = "Copy the worker files into the folder your site serves at its root with `npx offline-realm init public/`";
    expect(await resultOf('/faulty.html')).toEqual([
      `offline-realm: no worker file at /not-copied/offline-realm-sw.js (the server answers HTTP 404). ${fix}, or set serviceWorkerUrl to where they are.`,
      `offline-realm: no worker file at /index.html (the server answers text/html, not JavaScript). ${fix}, or set engineWorkerUrl to where they are.`,
      'offline-realm: cannot load the scenario: $.users[0].role: expected one of 100 (owner), 200 (administrator), 300 (moderator), 400 (member), 600 (guest)',
    ]);
  }, 60_000);
});

// Last: it replaces the consumer's msw 3 by msw 2.
describe('the packed package beside msw 2', () => {
  it('gets a peer warning from npm, and a clear error when offline-realm/msw is imported', async () => {
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', 'msw@2'], {
      cwd: consumer,
      encoding: 'utf8',
      env: consumerEnv(),
    });
    expect(installed.stderr).toMatch(/peerOptional msw@"\^3[^"]*" from offline-realm/);
    writeFileSync(join(consumer, 'msw-entry.mjs'), "await import('offline-realm/msw');\n");
    const { stderr } = await failure(inConsumer('msw-entry.mjs', []));
    expect(stderr).toMatch(/offline-realm\/msw needs msw 3 \(npm install -D msw@3\); this project has msw 2\./);
  }, 120_000);
});
