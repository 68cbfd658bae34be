import { expect } from 'chai';
import { main as postUpload } from '../src/routes/uploads/post.js';
import { call } from './support/http-event.js';

describe('POST /uploads', () => {
  it('refuses a caller without the tasks:write scope (403)', async () => {
    const response = await call(postUpload, { method: 'POST', path: '/uploads', body: { fileName: 'a.png', contentType: 'image/png' }, scopes: ['tasks:read'] });
    expect(response.statusCode).to.equal(403);
  });

  it('refuses a content type the app does not accept (400), before presigning anything', async () => {
    const response = await call(postUpload, { method: 'POST', path: '/uploads', body: { fileName: 'run.sh', contentType: 'application/x-sh' }, scopes: ['tasks:write'] });
    expect(response.statusCode).to.equal(400);
    expect((response.body as { error: { message: string } }).error.message).to.match(/contentType/);
  });

  it('refuses a file name with a path in it (400)', async () => {
    const response = await call(postUpload, { method: 'POST', path: '/uploads', body: { fileName: '../../etc/passwd', contentType: 'text/plain' }, scopes: ['tasks:write'] });
    expect(response.statusCode).to.equal(400);
  });
});
