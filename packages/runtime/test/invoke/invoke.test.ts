import { expect } from 'chai';
import { getService, invoke, InvokeError, resetLambdaClient, RuntimeError } from '../../src/index.js';
import { startStandIn, withEnv, type StandIn } from '../fixtures/stand-in-server.js';

describe('invoke: local (dev server contract)', () => {
  let devServer: StandIn;
  let restore: () => void;

  beforeEach(async () => {
    // a stand-in for `fw dev`'s /_dev/invoke endpoint, answering as the contract says
    devServer = await startStandIn((req, res) => {
      const name = decodeURIComponent(req.url.replace('/_dev/invoke/', ''));
      if (name === 'acme-dev-fn-missing') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"FUNCTION_NOT_FOUND","message":"no","requestId":"r"}}');
      } else if (req.headers['x-amz-invocation-type'] === 'Event') {
        res.writeHead(202).end();
      } else if (name === 'acme-dev-fn-reports-fail') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' }).end('{"errorType":"ReportError","errorMessage":"no data for 2026-11"}');
      } else if (name === 'acme-dev-fn-void') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('null');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: JSON.parse(req.body), name }));
      }
    });
    restore = withEnv({ FW_PROJECT: 'acme', FW_STAGE: 'dev', FW_DEV_ENDPOINT: devServer.url });
  });
  afterEach(async () => {
    restore();
    await devServer.close();
  });

  it('POSTs the payload to /_dev/invoke/<deployed name> and returns the result', async () => {
    const result = await invoke<{ echo: unknown; name: string }>({ function: 'reports/daily' }, { payload: { month: '2026-11' } });
    expect(result).to.deep.equal({ echo: { month: '2026-11' }, name: 'acme-dev-fn-reports-daily' });
    expect(devServer.requests[0]).to.include({ method: 'POST', url: '/_dev/invoke/acme-dev-fn-reports-daily' });
    expect(devServer.requests[0]!.headers['content-type']).to.equal('application/json');
  });

  it('rethrows a remote error as InvokeError with its name and message', async () => {
    const error = await invoke({ function: 'reports/fail' }).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(InvokeError);
    expect(error).to.include({ errorType: 'ReportError', errorMessage: 'no data for 2026-11', functionName: 'acme-dev-fn-reports-fail', code: 'FW_ERR_INVOKE_REMOTE' });
  });

  it('fires and forgets with mode async (X-Amz-Invocation-Type: Event → 202)', async () => {
    const result = await invoke({ function: 'reports/daily' }, { payload: { a: 1 }, mode: 'async' });
    expect(result).to.equal(undefined);
    expect(devServer.requests[0]!.headers['x-amz-invocation-type']).to.equal('Event');
    expect(devServer.requests[0]!.body).to.equal('{"a":1}');
  });

  it('returns null for a null result, and reports an unknown function as to FW_ERR_INVOKE_NOT_FOUND', async () => {
    expect(await invoke({ function: 'void' })).to.equal(null);
    const error = await invoke({ function: 'missing' }).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(RuntimeError);
    expect((error as RuntimeError).code).to.equal('FW_ERR_INVOKE_NOT_FOUND');
  });

  it('is on the service object', async () => {
    const result = await getService().invoke<{ name: string }>({ function: 'x' });
    expect(result.name).to.equal('acme-dev-fn-x');
  });

  it('names the missing variable when FW_PROJECT is not set', async () => {
    const restoreProject = withEnv({ FW_PROJECT: undefined });
    try {
      const error = await invoke({ function: 'x' }).then(() => undefined, (e: unknown) => e);
      expect((error as RuntimeError).code).to.equal('FW_ERR_MISSING_ENV');
      expect((error as Error).message).to.contain('FW_PROJECT');
    } finally {
      restoreProject();
    }
  });
});

describe('invoke: deployed (Lambda Invoke API)', () => {
  // AWS is mocked here: a loopback stand-in speaks Lambda's Invoke API
  // (POST /2015-03-31/functions/<name>/invocations) and the real SDK client is pointed at it.
  let lambda: StandIn;
  let restore: () => void;

  beforeEach(async () => {
    lambda = await startStandIn((req, res) => {
      const name = decodeURIComponent(req.url.split('/')[3] ?? '');
      if (req.headers['x-amz-invocation-type'] === 'Event') {
        res.writeHead(202, { 'x-amzn-requestid': 'r1' }).end();
      } else if (name === 'acme-prod-fn-fail') {
        res.writeHead(200, { 'x-amz-function-error': 'Unhandled', 'content-type': 'application/json' }).end('{"errorType":"TypeError","errorMessage":"x is undefined","trace":[]}');
      } else if (name === 'acme-prod-fn-gone') {
        res.writeHead(404, { 'x-amzn-errortype': 'ResourceNotFoundException', 'content-type': 'application/json' }).end('{"Type":"User","message":"Function not found"}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'x-amz-executed-version': '$LATEST' }).end(JSON.stringify({ got: JSON.parse(req.body), name }));
      }
    });
    restore = withEnv({
      FW_PROJECT: 'acme',
      FW_STAGE: 'prod',
      FW_DEV_ENDPOINT: undefined,
      AWS_REGION: 'us-east-2',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      AWS_SESSION_TOKEN: undefined,
      AWS_PROFILE: undefined,
      AWS_ENDPOINT_URL_LAMBDA: lambda.url,
    });
    resetLambdaClient();
  });
  afterEach(async () => {
    restore();
    resetLambdaClient();
    await lambda.close();
  });

  it('invokes the deployed name synchronously and returns the parsed payload', async () => {
    const result = await invoke({ function: 'reports/daily' }, { payload: { month: '2026-11' } });
    expect(result).to.deep.equal({ got: { month: '2026-11' }, name: 'acme-prod-fn-reports-daily' });
    expect(lambda.requests[0]!.url).to.equal('/2015-03-31/functions/acme-prod-fn-reports-daily/invocations');
    expect(lambda.requests[0]!.headers['x-amz-invocation-type']).to.equal('RequestResponse');
  });

  it('rethrows a function error as InvokeError', async () => {
    const error = await invoke({ function: 'fail' }).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(InvokeError);
    expect(error).to.include({ errorType: 'TypeError', errorMessage: 'x is undefined' });
  });

  it('sends async invocations as InvocationType Event', async () => {
    expect(await invoke({ function: 'reports/daily' }, { mode: 'async', payload: 1 })).to.equal(undefined);
    expect(lambda.requests[0]!.headers['x-amz-invocation-type']).to.equal('Event');
  });

  it('reports a function that does not exist as FW_ERR_INVOKE_NOT_FOUND', async () => {
    const error = await invoke({ function: 'gone' }).then(() => undefined, (e: unknown) => e);
    expect((error as RuntimeError).code).to.equal('FW_ERR_INVOKE_NOT_FOUND');
  });
});
