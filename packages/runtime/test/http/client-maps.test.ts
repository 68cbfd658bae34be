import { expect } from 'chai';
import fc from 'fast-check';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { createLogger, handler, setRootLogger, type HandlerContext } from '../../src/index.js';
import { httpEvent } from '../fixtures/events.js';

/** Every name `Object.prototype` answers to: the names that broke plain-object maps (`constructor`, `__proto__`, ...). */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

/** A name a client may send: any string, with the prototype's names often. */
const anyName = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ minLength: 1, maxLength: 12 }));
/** A cookie or header name: an HTTP token (no separators, no spaces), the prototype's names included. */
const tokenName = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/));
const value = fc.string({ maxLength: 8 });

/** A JSON object text with these own keys (`__proto__` included), as Lambda parses the event: `JSON.parse`. */
function jsonObject(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
}

function entriesOf(names: readonly string[], values: readonly string[]): [string, string][] {
  return names.map((name, i) => [name, values[i % values.length] ?? '']);
}

/** The event Lambda would hand over: built as JSON text, parsed, as the Lambda runtime does. */
function eventWith(parts: { query: [string, string][]; headers: [string, string][]; cookies: [string, string][]; path: [string, string][] }): APIGatewayProxyEventV2 {
  const base = httpEvent();
  // Placeholders longer than any generated value (8), so a value can never be taken for one.
  const text = JSON.stringify({ ...base, headers: '@@headers-slot@@', queryStringParameters: '@@query-slot@@', pathParameters: '@@path-slot@@' })
    .replace('"@@headers-slot@@"', () => jsonObject([...Object.entries(base.headers), ...parts.headers]))
    .replace('"@@query-slot@@"', () => jsonObject(parts.query))
    .replace('"@@path-slot@@"', () => jsonObject(parts.path));
  const event = JSON.parse(text) as APIGatewayProxyEventV2;
  event.rawQueryString = new URLSearchParams(parts.query).toString();
  event.cookies = parts.cookies.map(([name, v]) => `${name}=${encodeURIComponent(v)}`);
  return event;
}

describe('ctx maps of client names (query, multi-value query, headers, cookies, path parameters)', () => {
  beforeEach(() => setRootLogger(createLogger({ sink: () => undefined })));
  afterEach(() => setRootLogger(undefined));

  it('hold exactly the names sent, whatever they are, and nothing of Object.prototype', async () => {
    let seen: HandlerContext | undefined;
    const main = handler(async (_body, ctx) => {
      seen = ctx;
      // Read every lazy map inside the invocation, as a handler would.
      return { multi: Object.keys(ctx.multiValueQuery).length, cookies: Object.keys(ctx.cookies).length };
    });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(anyName, { maxLength: 5 }),
        fc.uniqueArray(tokenName, { maxLength: 5, selector: (n) => n.toLowerCase() }),
        fc.uniqueArray(tokenName, { maxLength: 5 }),
        fc.uniqueArray(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.stringMatching(/^[A-Za-z_]\w{0,8}$/)), { maxLength: 3 }),
        fc.array(value, { minLength: 1, maxLength: 5 }),
        async (queryNames, headerNames, cookieNames, pathNames, values) => {
          const query = entriesOf(queryNames, values);
          const reserved = new Set([...Object.keys(httpEvent().headers), 'cookie', 'content-type']);
          const headers = entriesOf(headerNames.map((n) => n.toLowerCase()).filter((n) => !reserved.has(n)), values);
          const cookies = entriesOf(cookieNames, values);
          const path = entriesOf(pathNames, values);
          const result = await main(eventWith({ query, headers, cookies, path }));
          expect(result.statusCode, result.body).to.equal(200);
          const ctx = seen!;
          for (const [name, v] of query) {
            expect(ctx.query[name], `query ${name}`).to.equal(v);
            expect(ctx.multiValueQuery[name], `multi-value query ${name}`).to.deep.equal([v]);
          }
          for (const [name, v] of headers) expect(ctx.headers[name], `header ${name}`).to.equal(v);
          for (const [name, v] of cookies) expect(ctx.cookies[name], `cookie ${name}`).to.equal(v);
          for (const [name, v] of path) expect(ctx.pathParams[name], `path parameter ${name}`).to.equal(v);
          expect(Object.keys(ctx.query).sort()).to.deep.equal(query.map(([n]) => n).sort());
          expect(Object.keys(ctx.multiValueQuery).sort()).to.deep.equal(query.map(([n]) => n).sort());
          expect(Object.keys(ctx.cookies).sort()).to.deep.equal(cookies.map(([n]) => n).sort());
          expect(Object.keys(ctx.pathParams).sort()).to.deep.equal(path.map(([n]) => n).sort());
          // A name nobody sent is absent, even when Object.prototype has it.
          for (const name of PROTOTYPE_NAMES) {
            if (!query.some(([n]) => n === name)) {
              expect(ctx.query[name], `query ${name}`).to.equal(undefined);
              expect(ctx.multiValueQuery[name], `multi-value query ${name}`).to.equal(undefined);
            }
            if (!cookies.some(([n]) => n === name)) expect(ctx.cookies[name], `cookie ${name}`).to.equal(undefined);
            if (!headers.some(([n]) => n === name)) expect(ctx.headers[name], `header ${name}`).to.equal(undefined);
            if (!path.some(([n]) => n === name)) expect(ctx.pathParams[name], `path parameter ${name}`).to.equal(undefined);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers ?constructor=1 and ?__proto__=x on ctx.multiValueQuery (a 500 before)', async () => {
    const main = handler(async (_body, ctx) => ({ multi: ctx.multiValueQuery, query: ctx.query }));
    const result = await main(httpEvent({ rawQueryString: 'constructor=1&__proto__=x&constructor=2', queryStringParameters: JSON.parse('{"constructor":"1,2","__proto__":"x"}') }));
    expect(result.statusCode).to.equal(200);
    expect(result.body).to.equal('{"multi":{"constructor":["1","2"],"__proto__":["x"]},"query":{"constructor":"1,2","__proto__":"x"}}');
  });

  it('keeps cookies named constructor and __proto__', async () => {
    const main = handler(async (_body, ctx) => ({ constructor: ctx.cookies['constructor'], proto: ctx.cookies['__proto__'], keys: Object.keys(ctx.cookies) }));
    const result = await main(httpEvent({ cookies: ['constructor=a', '__proto__=b', 'toString=c'] }));
    expect(JSON.parse(result.body!)).to.deep.equal({ constructor: 'a', proto: 'b', keys: ['constructor', '__proto__', 'toString'] });
  });
});
