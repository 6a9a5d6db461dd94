// `node bench/browser/main.ts`: the browser host's figures alone (`npm run bench` prints them after the Node table);
// `--only=topic-page,demo-import` measures those alone (bench/parts.ts).
import { onlyParts } from '../parts.ts';
import { runBrowserBench } from './browser-suite.ts';

await runBrowserBench(onlyParts(process.argv));
process.exit(0);
