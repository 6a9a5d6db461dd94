// The sync figures of issue 11 (docs/SYNC.md): convergence after a partition, hub throughput
// with 50 syncing replicas, and the latency a replica adds online; each beside its baseline
// through the hub's plain API, measured in the same run. `node bench/run.ts --only=sync` runs them
// alone; `--only=sync-latency` the latency figure alone.
import { loadavg } from 'node:os';
import { measureConvergence } from './sync-converge.ts';
import { measureSyncLatency } from './sync-latency.ts';
import { fixed, markdownTable, type Row } from './table.ts';
import { measureThroughput } from './sync-throughput.ts';

const CONVERGE_TARGET_SECONDS = 5;
const THROUGHPUT_TARGET = 0.5;
const LATENCY_TARGET = 2;

export async function runSyncBench({ latencyOnly }: { latencyOnly: boolean }): Promise<void> {
  const load = loadavg()[0]!;
  const rows: Row[] = [];
  if (!latencyOnly) {
    const converge = await measureConvergence();
    log(`convergence measured (${converge.changesEach} changes on each of two replicas)`);
    rows.push({
      figure: `converge after a partition, ${converge.changesEach} pending changes on each of two replicas, s`,
      measured: fixed(converge.seconds),
      baseline: `${fixed(converge.apiSeconds)} (the same changes through the hub's API, two clients)`,
      ratio: `${fixed(converge.seconds / converge.apiSeconds)}x`,
      target: `< ${CONVERGE_TARGET_SECONDS} s`,
      pass: converge.seconds < CONVERGE_TARGET_SECONDS,
    });
    const throughput = await measureThroughput();
    log(`throughput measured (${throughput.replicas} replicas, ${throughput.messages} messages each side)`);
    const throughputRatio = throughput.syncRate / throughput.apiRate;
    rows.push({
      figure: `hub throughput, ${throughput.replicas} syncing replicas on loopback, messages/s`,
      measured: fixed(throughput.syncRate, 0),
      baseline: `${fixed(throughput.apiRate, 0)} (${throughput.replicas} API clients sending to the hub)`,
      ratio: `${fixed(throughputRatio * 100, 0)}%`,
      target: `>= ${THROUGHPUT_TARGET * 100}% of baseline`,
      pass: throughputRatio >= THROUGHPUT_TARGET,
    });
  }
  const latency = await measureSyncLatency();
  log(`latency measured (${latency.samples} sends each side)`);
  const latencyRatio = latency.replica.p50 / latency.api.p50;
  rows.push({
    figure: 'send on replica A -> long-poll on replica B returns, p50 ms',
    measured: `${fixed(latency.replica.p50, 1)} (p99 ${fixed(latency.replica.p99, 1)})`,
    baseline: `${fixed(latency.api.p50, 1)} (send through the hub's API -> long-poll on the hub; p99 ${fixed(latency.api.p99, 1)})`,
    ratio: `${fixed(latencyRatio)}x`,
    target: `<= ${LATENCY_TARGET}x baseline`,
    pass: latencyRatio <= LATENCY_TARGET,
  });
  rows.push({
    figure: "the floor of a replica's path: A's send on an engine with no sync, then the same send through the hub's API -> long-poll on the hub, then B's write of the message and its flag row, p50 ms",
    measured: `${fixed(latency.floor.p50, 1)} (p99 ${fixed(latency.floor.p99, 1)})`,
    baseline: `${fixed(latency.api.p50, 1)} (the baseline above)`,
    ratio: `${fixed(latency.floor.p50 / latency.api.p50)}x`,
    target: '—',
    pass: null,
  });
  rows.push({
    figure: "send through the hub's API -> long-poll on replica B returns (the replica's path without A's part), p50 ms",
    measured: `${fixed(latency.apiToReplica.p50, 1)} (p99 ${fixed(latency.apiToReplica.p99, 1)})`,
    baseline: `${fixed(latency.replica.p50, 1)} (send on replica A -> long-poll on replica B, above)`,
    ratio: `replica's path ${fixed(latency.replica.p50 / latency.apiToReplica.p50)}x this`,
    target: '—',
    pass: null,
  });
  console.log();
  console.log(markdownTable(rows));
  console.log();
  console.log(`Load average when the sync figures started: ${fixed(load, 1)}.`);
}

function log(line: string): void {
  console.log(`[bench] ${line}`);
}
