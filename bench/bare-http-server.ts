// The floor of the HTTP throughput figures: bare `node:http` answering every request with a fixed
// JSON body (BARE_BODY), after reading the request's body as any server must. Run as a child of
// the bench, like the Node host, so neither shares an event loop with the load generator.
import { createServer } from 'node:http';

const body = Buffer.from(process.env.BARE_BODY ?? '{"result":"success","msg":""}');
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
