// The anchor for GET /tasks: plain Fastify + `pg` talking to the database engine's own port (no proxy, no worker, no
// token check: the caller's `sub` is read from the token unverified). Same query and answer as the example's route.
// Usage: node plain-tasks.mjs <database port> <database name> <port>. Prints "ready" once listening.
import Fastify from 'fastify';
import pg from 'pg';

const [databasePort, database, port] = process.argv.slice(2);
const pool = new pg.Pool({ host: '127.0.0.1', port: Number(databasePort), user: 'postgres', database, max: 10 });
const app = Fastify({ logger: false });
app.get('/tasks', async (request) => {
  const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
  const { sub } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8') || '{}');
  const { rows } = await pool.query('SELECT * FROM tasks WHERE owner = $1 ORDER BY created_at, id', [sub]);
  return { tasks: rows.map((r) => ({ id: r.id, title: r.title, status: r.status, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString() })) };
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => app.close().then(() => pool.end()).then(() => process.exit(0)));
