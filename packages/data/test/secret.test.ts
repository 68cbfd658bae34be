import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { databaseEnv } from '@framework/core/names';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { rootCertificates } from 'node:tls';
import { connectionSettings, DatabaseSecretError, forgetDatabaseSecret, tlsSettings } from '../src/index.js';

/**
 * The deployed path reads credentials from Secrets Manager. AWS itself cannot run here, so a local HTTP endpoint
 * answers the GetSecretValue call (the real SDK client is used, pointed at it through its endpoint variable).
 */
describe('deployed connection settings (Secrets Manager mocked by a local endpoint)', () => {
  let server: Server;
  let calls: { target: string | undefined; body: string }[];
  let answer: { status: number; body: unknown };
  const saved: Record<string, string | undefined> = {};
  const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:tasks-db-AbCdEf';
  const vars = databaseEnv('main');
  const env = { [vars.host]: 'db.cluster.example', [vars.port]: '5432', [vars.name]: 'main', [vars.secretArn]: ARN };

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        calls.push({ target: req.headers['x-amz-target'] as string | undefined, body });
        res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const vars2 = { AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' };
    for (const [k, v] of Object.entries(vars2)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });
  after(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    calls = [];
    forgetDatabaseSecret();
    answer = { status: 200, body: { ARN, Name: 'tasks-db', SecretString: JSON.stringify({ username: 'app', password: 's3cret', engine: 'postgres' }) } };
  });

  it('uses TLS and the secret\'s credentials, reading the secret once', async () => {
    const first = await connectionSettings('main', env);
    const second = await connectionSettings('main', env);
    expect(first).to.deep.include({ host: 'db.cluster.example', port: 5432, database: 'main', user: 'app', ssl: { rejectUnauthorized: true } });
    const password = first.password as () => Promise<string>;
    expect(await password()).to.equal('s3cret');
    expect(await (second.password as () => Promise<string>)()).to.equal('s3cret');
    expect(calls).to.have.length(1);
    expect(calls[0]?.target).to.equal('secretsmanager.GetSecretValue');
    expect(JSON.parse(calls[0]?.body ?? '{}')).to.deep.equal({ SecretId: ARN });
  });

  it('reports an unreadable secret with FW_ERR_DATA_SECRET and does not cache the failure', async () => {
    answer = { status: 400, body: { __type: 'AccessDeniedException', message: 'not authorized' } };
    const error = await connectionSettings('main', env).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(DatabaseSecretError).with.property('message').that.contains('GetSecretValue');
    answer = { status: 200, body: { ARN, SecretString: JSON.stringify({ username: 'app', password: 'x' }) } };
    expect((await connectionSettings('main', env)).user).to.equal('app');
  });

  it('refuses a secret without username and password', async () => {
    answer = { status: 200, body: { ARN, SecretString: JSON.stringify({ user: 'app' }) } };
    const error = await connectionSettings('main', env).catch((e: unknown) => e);
    expect(error).to.have.property('code', 'FW_ERR_DATA_SECRET');
  });
});

describe('TLS to RDS', () => {
  it('adds the Lambda runtime\'s CA bundle (with the RDS CAs) to Node\'s roots unless NODE_EXTRA_CA_CERTS is set', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fw-ca-'));
    try {
      const bundle = path.join(dir, 'ca-cert.pem');
      writeFileSync(bundle, '-----BEGIN CERTIFICATE-----\nRDS\n-----END CERTIFICATE-----\n');
      const tls = tlsSettings({}, bundle);
      expect(tls.rejectUnauthorized).to.equal(true);
      expect(tls.ca).to.have.length(rootCertificates.length + 1);
      expect(tlsSettings({ NODE_EXTRA_CA_CERTS: bundle }, bundle)).to.deep.equal({ rejectUnauthorized: true });
      expect(tlsSettings({}, path.join(dir, 'missing.pem'))).to.deep.equal({ rejectUnauthorized: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
