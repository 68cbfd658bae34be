import { expect } from 'chai';
import { handlerInfoOf } from '../../src/index.js';
import * as names from '../../src/names.js';

const main = (handlerInfo?: unknown) => Object.assign(async () => ({}), handlerInfo === undefined ? {} : { handlerInfo });

describe('handlerInfoOf: the one reader of a handler module', () => {
  it("reads what the runtime's handler() and taskHandler() declare", () => {
    expect(handlerInfoOf(main({ kind: 'http', scopes: ['tasks:read'], middleware: ['idempotency'], idempotent: true }))).to.deep.equal({
      kind: 'http',
      scopes: ['tasks:read'],
      middleware: ['idempotency'],
      idempotent: true,
    });
    expect(handlerInfoOf(main({ kind: 'task', scopes: [], middleware: [], retries: 2 }))).to.deep.equal({ kind: 'task', scopes: [], middleware: [], retries: 2 });
  });

  it('declares nothing for a plain Lambda handler, or a handlerInfo that is not an object', () => {
    expect(handlerInfoOf(main())).to.equal(undefined);
    expect(handlerInfoOf(main('http'))).to.equal(undefined);
    expect(handlerInfoOf(main(null))).to.equal(undefined);
    expect(handlerInfoOf(undefined)).to.equal(undefined);
  });

  it('keeps only what user code could not get wrong: strings as scopes and middleware, http unless task, typed extras', () => {
    const info = handlerInfoOf(main({ kind: 'cron', scopes: ['a', 1, null, 'b'], middleware: 'idempotency', retries: '3', idempotent: 'yes' }));
    expect(info).to.deep.equal({ kind: 'http', scopes: ['a', 'b'], middleware: [] });
  });

  it("reads the auth methods a route accepts, keeping only 'jwt' and 'apiKey'", () => {
    expect(handlerInfoOf(main({ kind: 'http', scopes: ['a'], middleware: [], auth: ['jwt', 'apiKey', 'cookie', 3] }))).to.deep.equal({ kind: 'http', scopes: ['a'], middleware: [], auth: ['jwt', 'apiKey'] });
    expect(handlerInfoOf(main({ kind: 'http', scopes: [], middleware: [], auth: 'apiKey' }))).to.deep.equal({ kind: 'http', scopes: [], middleware: [] });
  });

  it('is in @framework/core/names, which the dev worker and the infra reader import', () => {
    expect(names.handlerInfoOf).to.equal(handlerInfoOf);
  });
});
