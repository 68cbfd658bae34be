import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import type { HttpError } from '@framework/runtime';
import {
  generateWebhookSecret,
  signStandardWebhook,
  signStripeStyle,
  verifyStandardWebhook,
  verifyStripeStyle,
  WebhookSignatureInvalid,
  WebhookSignatureMissing,
  WebhookTimestampStale,
} from '../../src/index.js';

const NOW = Date.parse('2026-11-23T10:00:00Z');
const now = () => NOW;

/** What `fn` threw (fails the test when it did not throw). */
function thrown(fn: () => void): HttpError {
  try {
    fn();
  } catch (error) {
    return error as HttpError;
  }
  return expect.fail('expected a throw');
}

describe('webhook signatures', () => {
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ type: 'task.created', data: { id: 't1' } });

  describe('Standard Webhooks', () => {
    const headers = signStandardWebhook(secret, 'msg_1', new Date(NOW), body);

    it('signs so the standardwebhooks package verifies it, and verifies what that package signs', () => {
      expect(new Webhook(secret).verify(body, { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': new Webhook(secret).sign('msg_1', new Date(), body) })).to.deep.equal(JSON.parse(body));
      expect(() => verifyStandardWebhook([secret], body, headers, { now })).not.to.throw();
    });

    it('refuses a tampered body, a tampered id and another secret (401 WEBHOOK_SIGNATURE_INVALID)', () => {
      for (const [b, h, s] of [
        [body.replace('t1', 't2'), headers, secret],
        [body, { ...headers, 'webhook-id': 'msg_2' }, secret],
        [body, headers, generateWebhookSecret()],
      ] as const) {
        const error = thrown(() => verifyStandardWebhook([s], b, h, { now }));
        expect(error).to.be.instanceOf(WebhookSignatureInvalid);
        expect([error.status, error.code]).to.deep.equal([401, 'WEBHOOK_SIGNATURE_INVALID']);
      }
    });

    it('accepts any one of several secrets (a rotation)', () => {
      expect(() => verifyStandardWebhook([generateWebhookSecret(), secret], body, headers, { now })).not.to.throw();
    });

    it('refuses a stale or future timestamp (400 WEBHOOK_TIMESTAMP_STALE) and missing headers (400 WEBHOOK_SIGNATURE_MISSING)', () => {
      const stale = thrown(() => verifyStandardWebhook([secret], body, headers, { now: () => NOW + 301_000 }));
      expect([stale.status, stale.code]).to.deep.equal([400, 'WEBHOOK_TIMESTAMP_STALE']);
      expect(thrown(() => verifyStandardWebhook([secret], body, headers, { now: () => NOW - 301_000 }))).to.be.instanceOf(WebhookTimestampStale);
      expect(() => verifyStandardWebhook([secret], body, headers, { now: () => NOW + 600_000, toleranceSeconds: 900 })).not.to.throw();
      const missing = thrown(() => verifyStandardWebhook([secret], body, { 'webhook-id': 'msg_1' }, { now }));
      expect(missing).to.be.instanceOf(WebhookSignatureMissing);
      expect([missing.status, missing.code]).to.deep.equal([400, 'WEBHOOK_SIGNATURE_MISSING']);
    });
  });

  describe('Stripe-style (t=...,v1=...)', () => {
    const stripeSecret = 'whsec_stripe_test_secret';
    const header = signStripeStyle(stripeSecret, new Date(NOW), body);

    it('verifies its own signature and one among several v1 values', () => {
      expect(header).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(() => verifyStripeStyle([stripeSecret], body, header, { now })).not.to.throw();
      expect(() => verifyStripeStyle([stripeSecret], body, `${header.split(',')[0]},v1=${'0'.repeat(64)},${header.split(',')[1]}`, { now })).not.to.throw();
    });

    it('refuses tampering (401), staleness and a missing or garbled header (400)', () => {
      expect(thrown(() => verifyStripeStyle([stripeSecret], body + ' ', header, { now })).code).to.equal('WEBHOOK_SIGNATURE_INVALID');
      expect(thrown(() => verifyStripeStyle([stripeSecret], body, header.replace(/t=\d+/, `t=${NOW / 1000 + 1}`), { now })).code).to.equal('WEBHOOK_SIGNATURE_INVALID');
      expect(thrown(() => verifyStripeStyle([stripeSecret], body, header, { now: () => NOW + 301_000 })).code).to.equal('WEBHOOK_TIMESTAMP_STALE');
      for (const bad of [undefined, '', 't=1', 'v1=abc', 'garbage']) expect(thrown(() => verifyStripeStyle([stripeSecret], body, bad, { now })).code).to.equal('WEBHOOK_SIGNATURE_MISSING');
    });
  });
});
