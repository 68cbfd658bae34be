// The anchor: plain Fastify serving the same compiled handler in-process (no worker, no freshness, no auth).
// Usage: node plain-fastify.mjs <GET /health bundle.mjs> <POST /bench/echo bundle.mjs> <port>. Prints "ready" once listening.
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';

const [getBundle, postBundle, port] = process.argv.slice(2);
const app = Fastify({ logger: false });
// Bodies stay text, as the gateway hands them to the function.
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

async function serve(method, path, bundle) {
  const { main } = await import(pathToFileURL(bundle).href);
  app.route({
    method,
    url: path,
    handler: async (request, reply) => {
      const requestId = randomUUID();
      const now = new Date();
      const routeKey = `${method} ${path}`;
      const event = {
        version: '2.0',
        routeKey,
        rawPath: path,
        rawQueryString: '',
        headers: request.headers,
        requestContext: { requestId, routeKey, stage: '$default', time: now.toISOString(), timeEpoch: now.getTime(), http: { method, path, protocol: 'HTTP/1.1', sourceIp: request.ip, userAgent: '' } },
        body: typeof request.body === 'string' ? request.body : undefined,
        isBase64Encoded: false,
      };
      const result = await main(event, { awsRequestId: requestId, functionName: routeKey, getRemainingTimeInMillis: () => 10000 });
      reply.code(result.statusCode).headers(result.headers ?? {});
      return reply.send(result.body);
    },
  });
}

await serve('GET', '/health', getBundle);
await serve('POST', '/bench/echo', postBundle);
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
