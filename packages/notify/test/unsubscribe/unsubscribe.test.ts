import { handler } from '@framework/runtime';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { expect } from 'chai';
import {
  createUnsubscribeToken,
  ExpiredUnsubscribeTokenError,
  handleUnsubscribe,
  InvalidUnsubscribeTokenError,
  listUnsubscribeHeaders,
  OneClickBodyError,
  PreferenceStore,
  UnsubscribeSecretError,
  unsubscribeUrl,
  verifyUnsubscribeToken,
} from '../../src/index.js';
import { useChannelsDatabase } from '../support/channels-database.js';

const secret = 'a-test-secret-of-more-than-32-bytes-0123456789';
const now = new Date('2026-03-01T12:00:00Z');

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

/** A base64url segment with one character changed (the first, so padding bits do not hide the change). */
function flip(segment: string): string {
  return (segment[0] === 'A' ? 'B' : 'A') + segment.slice(1);
}

describe('unsubscribe tokens', () => {
  it('round-trips user, category and expiry', () => {
    const token = createUnsubscribeToken({ userId: 'user-1', category: 'digest', ttlSeconds: 3600 }, { secret, now });
    const claims = verifyUnsubscribeToken(token, { secret, now });
    expect(claims).to.deep.equal({ userId: 'user-1', category: 'digest', expiresAt: new Date('2026-03-01T13:00:00Z') });
  });

  it('refuses a token whose payload was changed (another user), with 400 UNSUBSCRIBE_TOKEN_INVALID', () => {
    const token = createUnsubscribeToken({ userId: 'user-1', category: 'digest' }, { secret, now });
    const [version, , signature] = token.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ u: 'user-2', c: 'digest', e: Math.floor(now.getTime() / 1000) + 3600 })).toString('base64url');
    const forged = `${version}.${forgedBody}.${signature}`;
    let caught: unknown;
    try {
      verifyUnsubscribeToken(forged, { secret, now });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(InvalidUnsubscribeTokenError);
    expect(caught).to.include({ status: 400, code: 'UNSUBSCRIBE_TOKEN_INVALID' });
  });

  it('refuses an altered signature, another secret, a garbled or missing token', () => {
    const token = createUnsubscribeToken({ userId: 'user-1', category: 'digest' }, { secret, now });
    const [version, body, signature] = token.split('.') as [string, string, string];
    expect(codeOf(() => verifyUnsubscribeToken(`${version}.${body}.${flip(signature)}`, { secret, now }))).to.equal('UNSUBSCRIBE_TOKEN_INVALID');
    expect(codeOf(() => verifyUnsubscribeToken(token, { secret: `${secret}-rotated`, now }))).to.equal('UNSUBSCRIBE_TOKEN_INVALID');
    expect(codeOf(() => verifyUnsubscribeToken('v1.not-a-token', { secret, now }))).to.equal('UNSUBSCRIBE_TOKEN_INVALID');
    expect(codeOf(() => verifyUnsubscribeToken(undefined, { secret, now }))).to.equal('UNSUBSCRIBE_TOKEN_INVALID');
    expect(codeOf(() => verifyUnsubscribeToken(`v2.${body}.${signature}`, { secret, now }))).to.equal('UNSUBSCRIBE_TOKEN_INVALID');
  });

  it('refuses a genuine token after its expiry with 410 UNSUBSCRIBE_TOKEN_EXPIRED', () => {
    const token = createUnsubscribeToken({ userId: 'user-1', category: 'digest', ttlSeconds: 60 }, { secret, now });
    expect(() => verifyUnsubscribeToken(token, { secret, now: new Date(now.getTime() + 59_000) })).not.to.throw();
    let caught: unknown;
    try {
      verifyUnsubscribeToken(token, { secret, now: new Date(now.getTime() + 60_000) });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(ExpiredUnsubscribeTokenError);
    expect(caught).to.include({ status: 410, code: 'UNSUBSCRIBE_TOKEN_EXPIRED' });
  });

  it('refuses a secret shorter than 32 bytes', () => {
    expect(codeOf(() => createUnsubscribeToken({ userId: 'u', category: 'c' }, { secret: 'short' }))).to.equal(UnsubscribeSecretError.CODE);
  });

  it('builds the RFC 8058 one-click headers around the link', () => {
    const url = unsubscribeUrl('https://app.example.com/unsubscribe', 'v1.a.b');
    expect(url).to.equal('https://app.example.com/unsubscribe?token=v1.a.b');
    expect(listUnsubscribeHeaders(url, { mailto: 'unsubscribe@example.com' })).to.deep.equal({
      'List-Unsubscribe': '<https://app.example.com/unsubscribe?token=v1.a.b>, <mailto:unsubscribe@example.com>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});

describe('one-click unsubscribe', () => {
  const db = useChannelsDatabase();

  it('a POST with List-Unsubscribe=One-Click opts the user out of the category; a GET changes nothing', async () => {
    const preferences = new PreferenceStore(db());
    const token = createUnsubscribeToken({ userId: 'click-user', category: 'marketing' }, { secret, now });
    const seen = await handleUnsubscribe({ method: 'GET', query: { token } }, { secret, now, preferences });
    expect(seen.status).to.equal('confirm');
    expect(await preferences.get('click-user', 'marketing')).to.equal(undefined);
    const done = await handleUnsubscribe({ method: 'POST', query: { token }, body: 'List-Unsubscribe=One-Click' }, { secret, now, preferences });
    expect(done.status).to.equal('unsubscribed');
    expect((await preferences.get('click-user', 'marketing'))?.optedOut).to.equal(true);
  });

  it('a POST without the one-click body is a 400 and changes nothing', async () => {
    const preferences = new PreferenceStore(db());
    const token = createUnsubscribeToken({ userId: 'no-body-user', category: 'marketing' }, { secret, now });
    let caught: unknown;
    try {
      await handleUnsubscribe({ method: 'POST', query: { token }, body: 'something=else' }, { secret, now, preferences });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(OneClickBodyError);
    expect(await preferences.get('no-body-user', 'marketing')).to.equal(undefined);
  });

  it('as a route: a tampered token answers 400 with the code, an expired one 410, never 500', async () => {
    const preferences = new PreferenceStore(db());
    const main = handler(async (body, ctx) => handleUnsubscribe({ method: ctx.method, query: ctx.query, body }, { secret, preferences }));
    const event = (token: string): APIGatewayProxyEventV2 =>
      ({
        version: '2.0',
        routeKey: 'POST /unsubscribe',
        rawPath: '/unsubscribe',
        rawQueryString: `token=${encodeURIComponent(token)}`,
        queryStringParameters: { token },
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        requestContext: { http: { method: 'POST', path: '/unsubscribe', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' }, requestId: 'r1', routeKey: 'POST /unsubscribe', stage: '$default', time: '', timeEpoch: 0, accountId: '1', apiId: 'a', domainName: 'x', domainPrefix: 'x' },
        body: 'List-Unsubscribe=One-Click',
        isBase64Encoded: false,
      }) as APIGatewayProxyEventV2;
    const good = createUnsubscribeToken({ userId: 'route-user', category: 'news' }, { secret });
    const [version, bodyPart, signature] = good.split('.') as [string, string, string];
    const tampered = await main(event(`${version}.${flip(bodyPart)}.${signature}`));
    expect(tampered.statusCode).to.equal(400);
    expect(JSON.parse(String(tampered.body)).error.code).to.equal('UNSUBSCRIBE_TOKEN_INVALID');
    const expired = await main(event(createUnsubscribeToken({ userId: 'route-user', category: 'news', expiresAt: new Date(Date.now() - 1000) }, { secret })));
    expect(expired.statusCode).to.equal(410);
    const ok = await main(event(good));
    expect(ok.statusCode).to.equal(201);
    expect((await preferences.get('route-user', 'news'))?.optedOut).to.equal(true);
  });
});
