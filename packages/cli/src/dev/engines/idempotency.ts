import { DEFAULT_IDEMPOTENCY_TABLE } from '@framework/core';
import type { DevEngine, EngineFactory, EngineStart } from './engine.js';

/**
 * Idempotency and saga stores run in memory inside each function locally (`createDefaultIdempotencyStore` decides
 * so), so there is nothing to start; the table variable still gets the default table name, as CONTRACTS §5 says.
 */
export class InMemoryIdempotencyEngine implements DevEngine {
  readonly intent = 'idempotency' as const;
  readonly kind = 'embedded' as const;

  async start(): Promise<EngineStart> {
    return { outputs: { default: { tableName: DEFAULT_IDEMPOTENCY_TABLE } } };
  }

  async stop(): Promise<void> {}
}

export const inMemoryIdempotency: EngineFactory = {
  intent: 'idempotency',
  kind: 'embedded',
  label: 'in memory (per function)',
  isAvailable: async () => true,
  isNeeded: () => true,
  create: () => new InMemoryIdempotencyEngine(),
};
