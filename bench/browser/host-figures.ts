// Drives the bench page (bench.html) in two tabs of one fresh profile and collects its samples.
import type { Page } from 'playwright';
import type { BenchRealm } from '../realm-fixture.ts';
import type { RegisterSamples, SendSamples, SmallGetSamples, TopicPageSamples } from './bench-protocol.ts';
import { type BenchPart, measures } from '../parts.ts';
import { freshProfile } from './chromium.ts';

const SMALL_GET = { samples: 500, warmup: 50 };
const SENDS = 500;
const TOPIC_PAGE = { samples: 300, warmup: 20 };
const EVENT = { samples: 200, warmup: 10 };
const REGISTER = { samples: 30, warmup: 5 };
/** Long enough for the started poll to reach the engine and wait there before the send. */
const POLL_SETTLE_MS = 15;
const BENCH_PAGE = '/bench/browser/bench.html';

export interface HostFigures {
  realm: BenchRealm;
  realmBuildSeconds: number;
  /** Each figure is null when `--only` left it out. */
  smallGet: SmallGetSamples | null;
  send: SendSamples | null;
  topicPage: TopicPageSamples | null;
  /** The scale part's `/register` figures at the browser realm's size. */
  register: RegisterSamples | null;
  /** Per send: from its start in tab A to the long-poll's answer in tab B, and the send alone. */
  event: { toOtherTab: number[]; send: number[] } | null;
  userAgent: string;
  /** Whether the bench page had fine-grained timers (see ISOLATED in browser-suite.ts). */
  isolated: boolean;
}

export async function measureHostFigures(origin: string, log: (line: string) => void, parts: ReadonlySet<BenchPart> | null): Promise<HostFigures> {
  const profile = await freshProfile();
  try {
    const sender = await openBenchTab(profile.context.newPage(), origin);
    const buildStart = performance.now();
    const realm = await sender.evaluate(() => window.offlineRealmBench.ready);
    const realmBuildSeconds = (performance.now() - buildStart) / 1000;
    log(`browser realm built in ${realmBuildSeconds.toFixed(1)} s: ${realm.messages} messages, ${realm.userMessages} user_messages rows`);

    let smallGet: SmallGetSamples | null = null;
    if (measures(parts, 'small-get')) {
      smallGet = await sender.evaluate(([n, w]) => window.offlineRealmBench.smallGet(n, w), [SMALL_GET.samples, SMALL_GET.warmup]);
      log(`small GET measured (${SMALL_GET.samples} samples each side)`);
    }
    let topicPage: TopicPageSamples | null = null;
    if (measures(parts, 'topic-page')) {
      topicPage = await sender.evaluate(([n, w]) => window.offlineRealmBench.topicPage(n, w), [TOPIC_PAGE.samples, TOPIC_PAGE.warmup]);
      log(`topic page measured (${TOPIC_PAGE.samples} samples each side)`);
    }
    let register: RegisterSamples | null = null;
    if (measures(parts, 'scale')) {
      register = await sender.evaluate(([n, w]) => window.offlineRealmBench.register(n, w), [REGISTER.samples, REGISTER.warmup]);
      log(`/register measured (${REGISTER.samples} samples of each)`);
    }
    let send: SendSamples | null = null;
    if (measures(parts, 'send')) {
      send = await sender.evaluate((n) => window.offlineRealmBench.sendRate(n), SENDS);
      log(`send rate measured (${SENDS} sends each side)`);
    }
    let event: HostFigures['event'] = null;
    if (measures(parts, 'other-tab')) {
      const listener = await openBenchTab(profile.context.newPage(), origin);
      await listener.evaluate(() => window.offlineRealmBench.ready);
      await listener.evaluate(() => window.offlineRealmBench.openQueue());
      event = await measureOtherTabLatency(sender, listener);
      log(`send-to-other-tab latency measured (${EVENT.samples} sends)`);
    }
    const userAgent = await sender.evaluate(() => navigator.userAgent);
    const isolated = await sender.evaluate(() => crossOriginIsolated);
    return { realm, realmBuildSeconds, smallGet, send, topicPage, register, event, userAgent, isolated };
  } finally {
    await profile.close();
  }
}

async function openBenchTab(opening: Promise<Page>, origin: string): Promise<Page> {
  const page = await opening;
  // The bench's own failures surface through its evaluate calls; these explain the host's.
  page.on('pageerror', (error) => console.error(`[bench page] ${error.stack ?? error.message}`));
  await page.goto(`${origin}${BENCH_PAGE}`);
  return page;
}

async function measureOtherTabLatency(sender: Page, listener: Page): Promise<NonNullable<HostFigures['event']>> {
  const toOtherTab: number[] = [];
  const send: number[] = [];
  for (let i = 0; i < EVENT.warmup + EVENT.samples; i++) {
    await listener.evaluate(() => window.offlineRealmBench.startPoll());
    await new Promise((resolve) => setTimeout(resolve, POLL_SETTLE_MS));
    const sent = await sender.evaluate((n) => window.offlineRealmBench.timedSend(n), i);
    const answeredAt = await listener.evaluate(() => window.offlineRealmBench.finishPoll());
    if (i < EVENT.warmup) continue;
    toOtherTab.push(answeredAt - sent.startedAt);
    send.push(sent.ms);
  }
  return { toOtherTab, send };
}
