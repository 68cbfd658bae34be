import { expect } from 'chai';
import { getService, handler, registerServiceExtension, resetService, RuntimeError, serviceExtensionNames } from '../../src/index.js';
import { httpEvent } from '../fixtures/events.js';
import { withEnv } from '../fixtures/stand-in-server.js';

// How another package adds its client: declaration merging on `Service`...
interface Greeter {
  greet(name: string): string;
  readonly stage: string;
}
declare module '../../src/index.js' {
  interface Service {
    readonly greeter: Greeter;
    readonly counter: { readonly created: number };
  }
}

let created = 0;
// ...plus a registration (in a package: at module load of the file that defines the client).
const greeterFactory = (service: { stage: string }): Greeter => {
  created++;
  return { greet: (name) => `hello ${name}`, stage: service.stage };
};

describe('service object and extension point', () => {
  let restore: () => void;
  beforeEach(() => {
    restore = withEnv({ FW_PROJECT: 'acme', FW_STAGE: 'dev', FW_REGION: 'eu-west-1' });
    resetService();
    created = 0;
    registerServiceExtension('greeter', greeterFactory, { replace: true });
  });
  afterEach(() => restore());

  it('carries the app identity and environment', () => {
    const service = getService();
    expect(service).to.include({ project: 'acme', stage: 'dev', region: 'eu-west-1' });
    expect(service.env['FW_PROJECT']).to.equal('acme');
    expect(typeof service.invoke).to.equal('function');
  });

  it('creates an extension on first access only, once per container, and passes it to handlers', async () => {
    // given a registered extension nobody read yet
    expect(created).to.equal(0);
    // when two requests use it
    const main = handler((_b, _ctx, service) => service.greeter.greet('ana'));
    const first = await main(httpEvent());
    await main(httpEvent());
    // then it was built once, with the service
    expect(JSON.parse(first.body!)).to.equal('hello ana');
    expect(created).to.equal(1);
    expect(getService().greeter.stage).to.equal('dev');
    expect(serviceExtensionNames()).to.include('greeter');
  });

  it('sees an extension registered after the service object was created', () => {
    const service = getService();
    registerServiceExtension('counter', () => ({ created: 1 }), { replace: true });
    expect(service.counter.created).to.equal(1);
  });

  it('refuses a second, different factory under a taken name, and built-in names', () => {
    expect(() => registerServiceExtension('greeter', () => ({ greet: () => '', stage: '' }))).to.throw(RuntimeError, /already registered/);
    // registering the same factory again (a module evaluated twice) is fine
    expect(() => registerServiceExtension('greeter', greeterFactory)).not.to.throw();
    expect(() => registerServiceExtension('queues' as 'greeter', greeterFactory)).to.throw(RuntimeError, /built into the runtime/);
  });

  it('wraps a failing factory in FW_ERR_SERVICE_EXTENSION', () => {
    registerServiceExtension('counter', () => {
      throw new Error('no connection string');
    }, { replace: true });
    expect(() => getService().counter).to.throw(RuntimeError, /Creating service.counter failed: no connection string/);
  });
});
