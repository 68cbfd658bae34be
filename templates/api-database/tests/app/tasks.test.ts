import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { app } from '../support/app.js';

// Through the running app, over HTTP, with real tokens of the local issuer and the real database: each test starts
// from the migrated, empty database (`resetData()` in tests/support/app.ts).
describe('/tasks (the running app)', () => {
  it('a member reads tasks (200) and may not create one (403); a call without a token is refused (401)', async () => {
    const member = app().as({ roles: ['member'] });
    expect((await member.get('/tasks')).status).to.equal(200);
    expect((await member.post('/tasks', { title: 'Not mine to write' })).status).to.equal(403);
    expect((await app().anonymous.get('/tasks')).status).to.equal(401);
  });

  it('an editor creates a task (201): it is in the table and GET lists it', async () => {
    const editor = app().as({ roles: ['editor'] });
    const created = await editor.post('/tasks', { title: 'Write the docs' });
    expect(created.status).to.equal(201);
    expect(await app().db().query('SELECT title, done FROM tasks')).to.deep.equal([{ title: 'Write the docs', done: false }]);
    const listed = await editor.get('/tasks');
    expect(listed.body.tasks.map((t: { id: string }) => t.id)).to.deep.equal([created.body.id]);
  });

  it('starts from an empty table again (the task of the test before is gone)', async () => {
    await app().db().seed('tasks', [{ id: randomUUID(), title: 'Seeded for this test' }]);
    const listed = await app().as({ roles: ['member'] }).get('/tasks');
    expect(listed.body.tasks.map((t: { title: string }) => t.title)).to.deep.equal(['Seeded for this test']);
  });
});
