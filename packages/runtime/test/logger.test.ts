import { expect } from 'chai';
import { createLogger, levelFromEnv, runWithTenant, RuntimeError } from '../src/index.js';
import { parseLines } from './fixtures/events.js';

describe('logger', () => {
  it('writes one JSON line per entry with level, message, timestamp, bound fields and data', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', sink: (l) => lines.push(l) }).child({ requestId: 'r1', traceId: 't1' });
    logger.info('task created', { id: 42 });
    const [entry] = parseLines(lines);
    expect(entry).to.include({ level: 'info', message: 'task created', requestId: 'r1', traceId: 't1' });
    expect(entry!['data']).to.deep.equal({ id: 42 });
    expect(new Date(entry!['timestamp'] as string).toISOString()).to.equal(entry!['timestamp']);
    expect(lines[0]).not.to.contain('\n');
  });

  it('adds the current tenant to every line written inside one, and nothing outside', () => {
    const lines: string[] = [];
    const logger = createLogger({ sink: (line) => lines.push(line) }).child({ requestId: 'r1' });
    runWithTenant({ id: 'acme' }, () => logger.info('for acme'));
    logger.info('for nobody');
    const [inside, outside] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(inside).to.include({ message: 'for acme', tenant: 'acme', requestId: 'r1' });
    expect(outside).to.not.have.property('tenant');
  });

  it('drops entries below the level', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', sink: (l) => lines.push(l) });
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(parseLines(lines).map((l) => l['level'])).to.deep.equal(['warn', 'error']);
    expect(logger.isEnabled('info')).to.equal(false);
  });

  it('reads LOG_LEVEL, falling back to info for unknown values', () => {
    expect(levelFromEnv({ LOG_LEVEL: 'DEBUG' })).to.equal('debug');
    expect(levelFromEnv({ LOG_LEVEL: 'error' })).to.equal('error');
    expect(levelFromEnv({ LOG_LEVEL: 'verbose' })).to.equal('info');
    expect(levelFromEnv({})).to.equal('info');
  });

  it('serializes errors with name, message, stack, code and cause, at top level and one level down', () => {
    const lines: string[] = [];
    const logger = createLogger({ sink: (l) => lines.push(l) });
    const error = new RuntimeError('FW_ERR_MISSING_ENV', 'FW_STAGE is not set', { cause: new TypeError('inner') });
    logger.error('failed', error);
    logger.error('failed', { error, orderId: 'o1' });
    const [top, nested] = parseLines(lines) as Array<{ data: any }>;
    expect(top!.data).to.include({ name: 'RuntimeError', message: 'FW_STAGE is not set', code: 'FW_ERR_MISSING_ENV' });
    expect(top!.data.stack).to.contain('logger.test.ts');
    expect(top!.data.cause).to.include({ name: 'TypeError', message: 'inner' });
    expect(nested!.data.orderId).to.equal('o1');
    expect(nested!.data.error.name).to.equal('RuntimeError');
  });

  it('survives circular data', () => {
    const lines: string[] = [];
    const data: Record<string, unknown> = {};
    data['self'] = data;
    createLogger({ sink: (l) => lines.push(l) }).info('loop', data);
    expect(parseLines(lines)[0]).to.include({ message: 'loop', data: '[unserializable]' });
  });
});
