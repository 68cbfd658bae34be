import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { OAuth2Server } from 'oauth2-mock-server';
import { startApp, TestingError } from '../src/index.js';

/** What the stand-in stage saw of one request. */
interface Seen {
  readonly path: string;
  readonly authorization?: string;
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

/**
 * `startApp({ url, machineClients })` against a stand-in for a deployed stage: an HTTP server on loopback that echoes
 * what it got, and oauth2-mock-server as the user pool's token endpoint (client credentials, Basic auth).
 */
describe('startApp({ url }): a deployed stage, machine clients through client credentials', () => {
  const oauth = new OAuth2Server();
  const grants: { grant?: string; basic?: string }[] = [];
  const seen: Seen[] = [];
  let stage: http.Server;
  let url: string;

  before(async () => {
    await oauth.issuer.keys.generate('RS256');
    await oauth.start(0, '127.0.0.1');
    oauth.service.on('beforeTokenSigning', (_token, req) => {
      grants.push({ grant: (req.body as Record<string, string>).grant_type, basic: req.headers.authorization });
    });
    stage = http.createServer((req, res) => {
      seen.push({ path: req.url ?? '', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => stage.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(stage.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => stage?.close(resolve));
    await oauth.stop();
  });

  it("asMachine(client) calls carry the token endpoint's token, got with the client's id and secret", async () => {
    const app = await startApp({ url, machineClients: { tokenUrl: `${oauth.issuer.url}/token`, clients: { reporting: { clientId: 'reporting-id', clientSecret: 's3cret' } } } });
    const answer = await app.asMachine('reporting').get('/tasks');
    expect(answer.status).to.equal(200);
    expect(grants).to.deep.equal([{ grant: 'client_credentials', basic: `Basic ${Buffer.from('reporting-id:s3cret').toString('base64')}` }]);
    const sent = seen.at(-1)!;
    expect(sent.path).to.equal('/tasks');
    const token = sent.authorization!.replace(/^Bearer /, '');
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { iss: string };
    expect(claims.iss).to.equal(oauth.issuer.url);
    // Each asMachine() client gets its own token on its first call and keeps it for the next ones.
    await app.asMachine('reporting').get('/tasks');
    expect(grants).to.have.length(2);
    const client = app.asMachine('reporting');
    await client.get('/a');
    await client.get('/b');
    expect(grants).to.have.length(3);
    await app.stop();
  });

  it('a machine client without credentials is FW_ERR_TESTING_BAD_OPTION; a refused one FW_ERR_TESTING_TOKEN', async () => {
    const app = await startApp({ url, machineClients: { tokenUrl: `${oauth.issuer.url}/token`, clients: {} } });
    const missing = await rejection(app.asMachine('billing').get('/tasks'));
    expect(missing).to.be.instanceOf(TestingError).with.property('code', 'FW_ERR_TESTING_BAD_OPTION');
    expect((missing as Error).message).to.contain('machineClients: { tokenUrl, clients: { billing: { clientId, clientSecret } } }');
    // The stage's token URL answering 404: the endpoint refused.
    const wrong = await startApp({ url, machineClients: { tokenUrl: `${oauth.issuer.url}/no-such-endpoint`, clients: { reporting: { clientId: 'x', clientSecret: 'y' } } } });
    const refused = await rejection(wrong.asMachine('reporting').get('/tasks'));
    expect(refused).to.be.instanceOf(TestingError).with.property('code', 'FW_ERR_TESTING_TOKEN');
    expect((refused as Error).message).to.match(/refused client credentials for "reporting" \(404\)/);
  });

  it('every local-only helper says so (the clock, drain, queues, storage, invoke, db, resetData, logs, user tokens)', async () => {
    const app = await startApp({ url });
    expect(app.local).to.equal(false);
    for (const use of [() => app.clock.now(), () => app.db(), () => app.queues.jobs, () => app.storage.uploads, () => app.logs()]) {
      const error = (() => {
        try {
          use();
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).to.be.instanceOf(TestingError).with.property('code', 'FW_ERR_TESTING_LOCAL_ONLY');
      expect((error as Error).message).to.contain(`the deployed stage at ${url}`);
    }
    for (const use of [() => app.clock.advance('1d'), () => app.drain(), () => app.resetData(), () => app.invoke('f'), () => app.as({ roles: ['member'] }).get('/tasks')]) {
      expect(await rejection(use())).to.be.instanceOf(TestingError).with.property('code', 'FW_ERR_TESTING_LOCAL_ONLY');
    }
    // Plain HTTP goes to the stage, without a token.
    const before = seen.length;
    expect((await app.anonymous.get('/health')).status).to.equal(200);
    expect(seen.slice(before)).to.deep.equal([{ path: '/health' }]);
    await app.stop();
  });
});
