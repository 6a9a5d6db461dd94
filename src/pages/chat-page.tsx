// KaTeX's layout of the math the server renders, with its fonts (bundled: the app works offline).
import 'katex/dist/katex.min.css';
import { render } from 'preact';
import { bootServer } from '../browser-host/page/boot.ts';
import { App } from '../chat/ui/frame/app.tsx';
import { localServer } from './local-server.ts';

// The page at `/`: starts the server in this browser (Service Worker + engine worker) and, at
// once beside it, the chat app, which reaches that server, or another, over /api/v1 only.
const engine = bootServer();
render(<App local={localServer(engine)} />, document.getElementById('app') as HTMLElement);
