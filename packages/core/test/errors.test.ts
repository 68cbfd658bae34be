import { expect } from 'chai';
import { ConfigError, FrameworkError, NamingError, isFrameworkError } from '../src/index.js';

describe('isFrameworkError', () => {
  it('is true for the framework errors, whatever their class', () => {
    expect(isFrameworkError(new FrameworkError('FW_ERR_ANY', 'm'))).to.equal(true);
    expect(isFrameworkError(new NamingError('bad name'))).to.equal(true);
    expect(isFrameworkError(new ConfigError([]))).to.equal(true);
  });

  it('is true for an error of another copy of the module (an app bundle, another node_modules)', async () => {
    // Given a second instance of the errors module (its own FrameworkError class)
    const copy = (await import(`../src/errors.js?copy=${Date.now()}`)) as typeof import('../src/errors.js');
    const foreign = new copy.NamingError('bad name');
    expect(foreign).not.to.be.instanceOf(FrameworkError);
    // When it is checked here, then it is one of ours
    expect(isFrameworkError(foreign)).to.equal(true);
  });

  it('is false for anything else, also an error whose code merely starts with FW_ERR', () => {
    expect(isFrameworkError(Object.assign(new Error('m'), { code: 'FW_ERR_LOOKALIKE' }))).to.equal(false);
    expect(isFrameworkError(new TypeError('m'))).to.equal(false);
    for (const value of [undefined, null, 'FW_ERR_X', 42, { code: 'FW_ERR_X' }]) expect(isFrameworkError(value), String(value)).to.equal(false);
  });
});
