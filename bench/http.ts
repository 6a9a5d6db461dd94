// The Node host's HTTP throughput (issue 13): `node bench/run.ts --only=http --no-browser` runs it alone (about 30 s).
import { cpus } from 'node:os';
import { CONNECTIONS, DURATION_SECONDS, measureHttpThroughput, type Throughput } from './http-throughput.ts';
import { fixed, markdownTable, type Row } from './table.ts';

/** Ours over bare `node:http`, for the GET; the send has no rate target (it writes, the floor does not). */
const GET_TARGET = 0.5;

const cpu = (figure: Throughput): string => (figure.cpuPerAnswer === null ? '' : `; ${fixed(figure.cpuPerAnswer, 0)} µs CPU`);

/** Bare's CPU per answer over ours: the ratio a quiet machine would show, were the server alone on a core. */
const cpuRatio = (ours: Throughput, bare: Throughput): string =>
  ours.cpuPerAnswer === null || bare.cpuPerAnswer === null ? '' : ` (CPU: ${fixed((bare.cpuPerAnswer / ours.cpuPerAnswer) * 100, 0)}%)`;

export async function runHttpBench(): Promise<void> {
  const figures = await measureHttpThroughput();
  const rows: Row[] = figures.map(({ what, ours, bare }) => {
    const ratio = ours.rate / bare.rate;
    const target = what.startsWith('GET') ? GET_TARGET : null;
    // An error answer is a failure whatever the rate: the row fails and says how many.
    const failures = ours.failed > 0 ? `; ${ours.failed} of ${ours.answered} answers not 2xx` : '';
    return {
      figure: `\`${what}\` over loopback, Node host as a child process, 2xx answers/s (p50 latency; load average at start; server CPU per answer)`,
      measured: `${fixed(ours.rate, 0)} (${fixed(ours.latencyP50, 1)} ms; load ${fixed(ours.load, 1)}${cpu(ours)}${failures})`,
      baseline: `${fixed(bare.rate, 0)} (bare \`node:http\`, fixed JSON, child process; ${fixed(bare.latencyP50, 1)} ms; load ${fixed(bare.load, 1)}${cpu(bare)})`,
      ratio: `${fixed(ratio * 100, 0)}%${cpuRatio(ours, bare)}`,
      target: target === null ? 'every answer 2xx' : `>= ${target * 100}% of baseline, every answer 2xx`,
      pass: ours.failed === 0 && (target === null || ratio >= target),
    };
  });
  console.log();
  console.log(markdownTable(rows));
  console.log();
  console.log(
    `Load generator: autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per figure after a 1 s warm-up, ` +
      `in the bench process; ${cpus().length} cores shared by the load generator and the server.`,
  );
}
