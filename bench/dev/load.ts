import * as http from 'node:http';

/**
 * Sends requests (GET, or POST with `body` as JSON) over `connections` keep-alive sockets for `durationMs` (or until
 * `total` answers); counts 200s and gives the median time of a request.
 */
export async function load(url: string, options: { connections: number; durationMs?: number; total?: number; body?: string; headers?: Record<string, string> }): Promise<{ requests: number; perSecond: number; errors: number; p50Ms: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(url);
  const started = performance.now();
  const deadline = options.durationMs === undefined ? Infinity : started + options.durationMs;
  let sent = 0;
  let ok = 0;
  let errors = 0;
  const times: number[] = [];
  const one = () =>
    new Promise<void>((resolve) => {
      const post = options.body !== undefined;
      const headers = { ...options.headers, ...(post ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(options.body!)) } : {}) };
      const sentAt = performance.now();
      const request = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: post ? 'POST' : 'GET', headers, agent }, (response) => {
        response.resume();
        response.on('end', () => {
          times.push(performance.now() - sentAt);
          if (response.statusCode === 200) ok++;
          else errors++;
          resolve();
        });
      });
      request.on('error', () => {
        errors++;
        resolve();
      });
      request.end(options.body);
    });
  const worker = async () => {
    while (performance.now() < deadline && (options.total === undefined || sent < options.total)) {
      sent++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  times.sort((a, b) => a - b);
  return { requests: ok, perSecond: ok / seconds, errors, p50Ms: times[Math.floor(times.length / 2)] ?? NaN };
}
