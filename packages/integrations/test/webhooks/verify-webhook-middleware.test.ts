import { expect } from 'chai';
import { createLogger, handler, setRootLogger } from '@framework/runtime';
import { generateWebhookSecret, IntegrationsError, signStandardWebhook, signStripeStyle, verifyWebhook } from '../../src/index.js';

/** A payload 2.0 event for POST /hooks with this raw body and headers. */
function hookEvent(body: string, headers: Record<string, string>, isBase64Encoded = false) {
  return {
    version: '2.0',
    routeKey: 'POST /hooks',
    rawPath: '/hooks',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', ...headers },
    requestContext: { requestId: 'req-1', http: { method: 'POST', path: '/hooks', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' }, routeKey: 'POST /hooks', stage: '$default', time: '', timeEpoch: 0, accountId: '1', apiId: 'a', domainName: 'd', domainPrefix: 'd' },
    body: isBase64Encoded ? Buffer.from(body).toString('base64') : body,
    isBase64Encoded,
  } as never;
}

describe('verifyWebhook middleware', () => {
  beforeEach(() => setRootLogger(createLogger({ sink: () => undefined })));
  afterEach(() => setRootLogger(undefined));
  const body = '{"type":"invoice.paid","data":{"id":"in_1"}}';

  it('lets a Standard Webhooks request through to the function, over the raw body (base64 too)', async () => {
    const secret = generateWebhookSecret();
    const seen: unknown[] = [];
    const route = handler({ middleware: [verifyWebhook({ scheme: 'standard', secret })], fn: (received) => void seen.push(received) });
    const headers = { ...signStandardWebhook(secret, 'msg_1', new Date(), body) };
    expect((await route(hookEvent(body, headers))).statusCode).to.equal(204);
    expect((await route(hookEvent(body, headers, true))).statusCode).to.equal(204);
    expect(seen).to.deep.equal([JSON.parse(body), JSON.parse(body)]);
  });

  it('answers a forged request 401 and a stale one 400, with their codes, before the function runs', async () => {
    const secret = generateWebhookSecret();
    let ran = false;
    const route = handler({ middleware: [verifyWebhook({ scheme: 'standard', secret: () => secret })], fn: () => void (ran = true) });
    const forged = await route(hookEvent(body.replace('in_1', 'in_2'), signStandardWebhook(secret, 'msg_1', new Date(), body)));
    expect(forged.statusCode).to.equal(401);
    expect(JSON.parse(forged.body as string).error.code).to.equal('WEBHOOK_SIGNATURE_INVALID');
    const stale = await route(hookEvent(body, signStandardWebhook(secret, 'msg_1', new Date(Date.now() - 3600_000), body)));
    expect([stale.statusCode, JSON.parse(stale.body as string).error.code]).to.deep.equal([400, 'WEBHOOK_TIMESTAMP_STALE']);
    expect(ran).to.equal(false);
  });

  it('checks Stripe-style signatures from the Stripe-Signature header', async () => {
    const route = handler({ middleware: [verifyWebhook({ scheme: 'stripe', secret: ['old-secret', 'whsec_new'] })], fn: () => ({ ok: true }) });
    expect((await route(hookEvent(body, { 'stripe-signature': signStripeStyle('whsec_new', new Date(), body) }))).statusCode).to.equal(201);
    const forged = await route(hookEvent(body, { 'stripe-signature': signStripeStyle('another', new Date(), body) }));
    expect(forged.statusCode).to.equal(401);
    expect((await route(hookEvent(body, {}))).statusCode).to.equal(400);
  });

  it('refuses options it cannot use at creation', () => {
    expect(() => verifyWebhook({ scheme: 'svix' as 'standard', secret: 'x' })).to.throw(IntegrationsError, 'scheme');
    expect(() => verifyWebhook({ scheme: 'standard', secret: 'x', toleranceSeconds: 0 })).to.throw(IntegrationsError, 'toleranceSeconds');
  });
});
