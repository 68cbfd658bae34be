import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { expectCodeTable } from '../../../core/test/helpers/code-table.js';
import * as idempotency from '../../src/idempotency/index.js';
import { IDEMPOTENCY_ERROR_CODES, IDEMPOTENCY_HTTP_CODES, IdempotencyError } from '../../src/idempotency/errors.js';

const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md'), 'utf8');

describe('idempotency and saga errors', () => {
  it('documents every error code and every HTTP body code in the README, and nothing else', () => {
    expectCodeTable(readme, 'Idempotency and saga errors', [...Object.keys(IDEMPOTENCY_HTTP_CODES), ...Object.keys(IDEMPOTENCY_ERROR_CODES)]);
  });

  it('has an exported class for every FW_ERR code, each with its code and its class name', () => {
    const made = new Map<string, IdempotencyError>();
    const args: Record<string, unknown[]> = {
      IdempotencyConfigError: ['bad option'],
      IdempotencyKeyMissingError: ['orders'],
      IdempotencyKeyTooLongError: [300, 255],
      IdempotencyInProgressError: ['k', 3],
      IdempotencyKeyReusedError: ['k'],
      IdempotencyNotOwnerError: ['k'],
      IdempotencyResponseTooLargeError: [500_000, 399_360],
      IdempotencyStoreError: ['read a record', new Error('ResourceNotFoundException')],
      SagaDefinitionError: ['no steps'],
      SagaInProgressError: ['o-1', 5],
      SagaFailedError: ['o-1', 'charge', 'Error: declined'],
      SagaCompensationFailedError: ['o-1', 'ship', 'charge', 'Error: refund failed'],
      SagaLeaseLostError: ['o-1'],
    };
    for (const [name, value] of Object.entries(idempotency)) {
      if (typeof value !== 'function' || !(value.prototype instanceof IdempotencyError)) continue;
      const error = new (value as new (...a: unknown[]) => IdempotencyError)(...(args[name] ?? []));
      expect(error.name).to.equal(name);
      expect(error.message).not.to.equal('');
      made.set(error.code, error);
    }
    expect([...made.keys()]).to.have.members(Object.keys(IDEMPOTENCY_ERROR_CODES));
  });
});
