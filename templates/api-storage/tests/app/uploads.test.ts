import { expect } from 'chai';
import { app } from '../support/app.js';

// The browser's whole path against the running app: ask for a presigned form, upload the file straight to storage,
// find it in the bucket.
describe('uploads (the running app)', () => {
  it('an editor gets a presigned form (201); the file posted with it lands in the uploads bucket', async () => {
    const presigned = await app().as({ roles: ['editor'], sub: 'ada' }).post('/uploads', { fileName: 'notes.txt', contentType: 'text/plain' });
    expect(presigned.status).to.equal(201);
    const form = new FormData();
    for (const [name, value] of Object.entries(presigned.body.fields as Record<string, string>)) form.append(name, value);
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'notes.txt');
    const uploaded = await fetch(presigned.body.url, { method: 'POST', body: form });
    expect(uploaded.status).to.be.within(200, 204);
    const objects = await app().storage.uploads.list('uploads/ada/');
    expect(objects.map((o: { key: string }) => o.key)).to.deep.equal([presigned.body.key]);
  });

  it('a member may not upload (403)', async () => {
    expect((await app().as({ roles: ['member'] }).post('/uploads', { fileName: 'notes.txt', contentType: 'text/plain' })).status).to.equal(403);
  });
});
