import { expect } from 'chai';
import { handlerInfoOf, INTENT_KIND_REGISTRY, isIntentHandlerKind, KIND_HANDLERS } from '../../src/index.js';
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

  it('keeps the handler kinds the intent kinds bring (ws), each owned by a kind of the registry, and no other', () => {
    expect(handlerInfoOf(main({ kind: 'ws', scopes: ['chat:join'], middleware: [] }))).to.deep.equal({ kind: 'ws', scopes: ['chat:join'], middleware: [] });
    expect(Object.keys(KIND_HANDLERS)).to.deep.equal(['ws']);
    for (const owner of Object.values(KIND_HANDLERS)) expect(INTENT_KIND_REGISTRY).to.have.property(owner);
    // Inherited names are no handler kinds (a user module's handlerInfo is untrusted).
    expect(['ws', 'toString', 'constructor', 'http', 'task', 1].map(isIntentHandlerKind)).to.deep.equal([true, false, false, false, false, false]);
    expect(handlerInfoOf(main({ kind: 'toString', scopes: [], middleware: [] }))?.kind).to.equal('http');
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
