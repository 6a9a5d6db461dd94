// `node bench/browser/main.ts`: the browser host's figures alone (`npm run bench` prints them after the Node table).
import { runBrowserBench } from './browser-suite.ts';

await runBrowserBench();
