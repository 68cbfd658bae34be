import { expect } from 'chai';
import { runWithTenant } from '../../src/context/tenant.js';
import { createLogger, setRootLogger } from '../../src/logger/logger.js';
import { putMetric, setMetricSink } from '../../src/metrics/put-metric.js';

interface EmfLine {
  _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

describe('putMetric (embedded metric format)', () => {
  const lines: EmfLine[] = [];
  const warnings: string[] = [];
  const project = process.env['FW_PROJECT'];
  beforeEach(() => {
    lines.length = 0;
    warnings.length = 0;
    setMetricSink((line) => void lines.push(JSON.parse(line) as EmfLine));
    setRootLogger(createLogger({ sink: (line) => void warnings.push(line) }));
    process.env['FW_PROJECT'] = 'shop';
  });
  afterEach(() => {
    setMetricSink(undefined);
    setRootLogger(undefined);
    if (project === undefined) delete process.env['FW_PROJECT'];
    else process.env['FW_PROJECT'] = project;
  });

  it('inside a tenant: the tenant is a property and a dimension, next to the total without it', () => {
    runWithTenant({ id: 'acme' }, () => putMetric('OrdersPlaced', 2, { dimensions: { channel: 'web' } }));
    const [line] = lines;
    expect(line?._aws.CloudWatchMetrics).to.deep.equal([{ Namespace: 'shop', Dimensions: [['channel'], ['channel', 'tenant']], Metrics: [{ Name: 'OrdersPlaced', Unit: 'Count' }] }]);
    expect(line).to.include({ OrdersPlaced: 2, channel: 'web', tenant: 'acme' });
    expect(line?._aws.Timestamp).to.be.a('number');
  });

  it('with tenantDimension: false the tenant stays a property only (one series, whatever the number of tenants)', () => {
    runWithTenant({ id: 'acme' }, () => putMetric('Latency', 12.5, { unit: 'Milliseconds', namespace: 'custom', tenantDimension: false }));
    expect(lines[0]?._aws.CloudWatchMetrics[0]).to.deep.equal({ Namespace: 'custom', Dimensions: [[]], Metrics: [{ Name: 'Latency', Unit: 'Milliseconds' }] });
    expect(lines[0]).to.include({ Latency: 12.5, tenant: 'acme' });
  });

  it('outside a tenant: no tenant at all', () => {
    putMetric('Jobs', 1);
    expect(lines[0]?._aws.CloudWatchMetrics[0]?.Dimensions).to.deep.equal([[]]);
    expect(lines[0]).to.not.have.property('tenant');
  });

  it('drops a metric it cannot write, with a warning, and never throws', () => {
    expect(() => putMetric('Bad:Name', 1)).to.not.throw();
    expect(() => putMetric('Value', Number.NaN)).to.not.throw();
    expect(() => putMetric('Dims', 1, { dimensions: { tenant: 'x' } })).to.not.throw();
    expect(lines).to.have.length(0);
    expect(warnings.filter((w) => w.includes('metric dropped'))).to.have.length(3);
  });
});
