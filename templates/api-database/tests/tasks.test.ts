import { expect } from 'chai';
import { main as listTasks } from '../src/routes/tasks/get.js';
import { main as createTask } from '../src/routes/tasks/post.js';
import { startTestDatabase } from './support/database.js';
import { call } from './support/http-event.js';

describe('/tasks (PostgreSQL)', function () {
  // The first start of the test database boots PostgreSQL and migrates it (seconds; more on a busy machine).
  this.timeout(180_000);
  let database: { stop(): Promise<void> };
  before(async () => {
    database = await startTestDatabase();
  });
  after(async () => {
    await database?.stop();
  });

  it('GET refuses a request without a token (401)', async () => {
    const response = await call(listTasks, { method: 'GET', path: '/tasks' });
    expect(response.statusCode).to.equal(401);
  });

  it('GET refuses a token without the tasks:read scope (403)', async () => {
    const response = await call(listTasks, { method: 'GET', path: '/tasks', scopes: ['tasks:write'] });
    expect(response.statusCode).to.equal(403);
  });

  it('POST stores a task in the database (201) and GET lists it', async () => {
    // Given a caller allowed to write and read tasks
    const scopes = ['tasks:read', 'tasks:write'];

    // When it creates a task
    const created = await call(createTask, { method: 'POST', path: '/tasks', body: { title: 'Write the docs' }, scopes });

    // Then the row is in the table and listed
    expect(created.statusCode).to.equal(201);
    const task = created.body as { id: string; title: string; done: boolean };
    expect(task).to.deep.include({ title: 'Write the docs', done: false });
    const listed = await call(listTasks, { method: 'GET', path: '/tasks', scopes });
    expect(listed.statusCode).to.equal(200);
    expect((listed.body as { tasks: { id: string }[] }).tasks.map((t) => t.id)).to.deep.equal([task.id]);
  });

  it('POST answers 400 for a body without a title, and stores nothing', async () => {
    const scopes = ['tasks:read', 'tasks:write'];
    const before = ((await call(listTasks, { method: 'GET', path: '/tasks', scopes })).body as { tasks: unknown[] }).tasks.length;
    const response = await call(createTask, { method: 'POST', path: '/tasks', body: { name: 'x' }, scopes });
    expect(response.statusCode).to.equal(400);
    const after = ((await call(listTasks, { method: 'GET', path: '/tasks', scopes })).body as { tasks: unknown[] }).tasks.length;
    expect(after).to.equal(before);
  });
});
