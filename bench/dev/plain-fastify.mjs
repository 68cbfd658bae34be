// The anchor: plain Fastify serving the same compiled handler in-process (no worker, no freshness, no auth).
// Usage: node plain-fastify.mjs <bundle.mjs> <port>. Prints "ready" once listening.
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';

const [bundle, port] = process.argv.slice(2);
const { main } = await import(pathToFileURL(bundle).href);
const app = Fastify({ logger: false });
app.get('/health', async (request, reply) => {
  const requestId = randomUUID();
  const now = new Date();
  const event = {
    version: '2.0',
    routeKey: 'GET /health',
    rawPath: '/health',
    rawQueryString: '',
    headers: request.headers,
    requestContext: { requestId, routeKey: 'GET /health', stage: '$default', time: now.toISOString(), timeEpoch: now.getTime(), http: { method: 'GET', path: '/health', protocol: 'HTTP/1.1', sourceIp: request.ip, userAgent: '' } },
    isBase64Encoded: false,
  };
  const result = await main(event, { awsRequestId: requestId, functionName: 'health', getRemainingTimeInMillis: () => 10000 });
  reply.code(result.statusCode).headers(result.headers ?? {});
  return reply.send(result.body);
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
