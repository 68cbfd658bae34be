import { expect } from 'chai';
import { main as listTasks } from '../src/routes/tasks/get.js';
import { main as createTask } from '../src/routes/tasks/post.js';
import { call } from './support/http-event.js';

describe('/tasks', () => {
  it('GET refuses a request without a token (401)', async () => {
    const response = await call(listTasks, { method: 'GET', path: '/tasks' });
    expect(response.statusCode).to.equal(401);
  });

  it('GET refuses a token without the tasks:read scope (403)', async () => {
    const response = await call(listTasks, { method: 'GET', path: '/tasks', scopes: ['tasks:write'] });
    expect(response.statusCode).to.equal(403);
  });

  it('POST creates a task (201) that GET then lists', async () => {
    // Given a caller allowed to write and read tasks
    const scopes = ['tasks:read', 'tasks:write'];

    // When it creates a task
    const created = await call(createTask, { method: 'POST', path: '/tasks', body: { title: 'Write the docs' }, scopes });

    // Then the task is created and listed
    expect(created.statusCode).to.equal(201);
    const task = created.body as { id: string; title: string; done: boolean };
    expect(task.title).to.equal('Write the docs');
    expect(task.done).to.equal(false);
    const listed = await call(listTasks, { method: 'GET', path: '/tasks', scopes });
    expect(listed.statusCode).to.equal(200);
    expect((listed.body as { tasks: { id: string }[] }).tasks.map((t) => t.id)).to.include(task.id);
  });

  it('POST answers 400 for a body without a title', async () => {
    const response = await call(createTask, { method: 'POST', path: '/tasks', body: { name: 'x' }, scopes: ['tasks:write'] });
    expect(response.statusCode).to.equal(400);
  });
});
