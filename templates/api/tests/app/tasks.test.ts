import { expect } from 'chai';
import { app } from '../support/app.js';

// Through the running app, over HTTP, with real tokens of the local issuer: the route, its auth check and its code.
describe('/tasks (the running app)', () => {
  it('a member reads tasks (200) and may not create one (403)', async () => {
    const member = app().as({ roles: ['member'] });
    expect((await member.get('/tasks')).status).to.equal(200);
    expect((await member.post('/tasks', { title: 'Not mine to write' })).status).to.equal(403);
  });

  it('an editor creates a task (201); a call without a token is refused (401)', async () => {
    const created = await app().as({ roles: ['editor'] }).post('/tasks', { title: 'Write the docs' });
    expect(created.status).to.equal(201);
    expect(created.body).to.deep.include({ title: 'Write the docs', done: false });
    expect((await app().anonymous.get('/tasks')).status).to.equal(401);
  });

  it('the web app client (client credentials) reads tasks with its own token', async () => {
    expect((await app().asMachine('web').get('/tasks')).status).to.equal(200);
  });
});
