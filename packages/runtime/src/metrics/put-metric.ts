import { ENV } from '@framework/core/names';
import { currentTenant } from '../context/tenant.js';
import { getRootLogger } from '../logger/logger.js';

/** The units CloudWatch accepts. */
export type MetricUnit =
  | 'Seconds' | 'Microseconds' | 'Milliseconds' | 'Bytes' | 'Kilobytes' | 'Megabytes' | 'Gigabytes' | 'Terabytes'
  | 'Bits' | 'Kilobits' | 'Megabits' | 'Gigabits' | 'Terabits' | 'Percent' | 'Count' | 'Bytes/Second'
  | 'Kilobytes/Second' | 'Megabytes/Second' | 'Gigabytes/Second' | 'Terabytes/Second' | 'Bits/Second'
  | 'Kilobits/Second' | 'Megabits/Second' | 'Gigabits/Second' | 'Terabits/Second' | 'Count/Second' | 'None';

export interface MetricOptions {
  /**
   * The value's unit.
   * @default 'Count'
   */
  readonly unit?: MetricUnit;
  /**
   * Dimensions of the metric, name to value (at most 29: CloudWatch allows 30, one is kept for `tenant`).
   * @default - none
   */
  readonly dimensions?: Readonly<Record<string, string>>;
  /**
   * The CloudWatch namespace.
   * @default - the project (`FW_PROJECT`), else 'framework'
   */
  readonly namespace?: string;
  /**
   * Inside a tenant, also publish the metric per tenant (dimension `tenant`). Each tenant then makes its own
   * CloudWatch metric (billed per metric and month): turn it off for metrics written very often by many tenants; the
   * tenant is still a property of the line (CloudWatch Logs Insights groups by it at no metric cost).
   * @default true
   */
  readonly tenantDimension?: boolean;
  /**
   * Properties written on the line (searchable in Logs Insights), not dimensions.
   * @default - none
   */
  readonly properties?: Readonly<Record<string, unknown>>;
}

/** Where metric lines go: stdout (CloudWatch Logs turns embedded-metric-format lines into metrics). */
export type MetricSink = (line: string) => void;

let sink: MetricSink | undefined;

/** Replaces where metric lines are written (tests); `undefined` restores stdout. */
export function setMetricSink(next: MetricSink | undefined): void {
  sink = next;
}

const NAME = /^[^\s:][^:]{0,254}$/;
const RESERVED = new Set(['_aws', 'tenant']);
const MAX_DIMENSIONS = 29;

/**
 * Publishes one value of a CloudWatch metric as an embedded-metric-format line on stdout: no SDK call, no latency,
 * the Lambda's log stream is the transport (locally the line is just a log line). Inside a tenant (`currentTenant()`)
 * the line carries `tenant` and the metric is published twice: without the tenant (the app's total) and with it (one
 * series per tenant), unless `tenantDimension: false`.
 *
 * A metric that cannot be written (bad name, value, dimension) is dropped with a warning: metrics never fail the
 * work they measure.
 */
export function putMetric(name: string, value: number, options: MetricOptions = {}): void {
  const problem = invalid(name, value, options);
  if (problem) {
    getRootLogger().warn('metric dropped', { metric: name, problem });
    return;
  }
  const dimensions = options.dimensions ?? {};
  const names = Object.keys(dimensions);
  const tenant = currentTenant()?.id;
  const sets = tenant !== undefined && options.tenantDimension !== false ? [names, [...names, 'tenant']] : [names];
  const line: Record<string, unknown> = {
    ...options.properties,
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [{ Namespace: options.namespace ?? (process.env[ENV.project] || 'framework'), Dimensions: sets, Metrics: [{ Name: name, Unit: options.unit ?? 'Count' }] }],
    },
    ...dimensions,
    ...(tenant !== undefined ? { tenant } : {}),
    [name]: value,
  };
  (sink ?? stdoutSink)(JSON.stringify(line));
}

function stdoutSink(line: string): void {
  process.stdout.write(line + '\n');
}

function invalid(name: string, value: number, options: MetricOptions): string | undefined {
  if (typeof name !== 'string' || !NAME.test(name) || RESERVED.has(name)) return 'the name must be 1 to 255 characters, without ":", not starting with a space, and not "_aws" or "tenant"';
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'the value must be a finite number';
  const dimensions = options.dimensions ?? {};
  const names = Object.keys(dimensions);
  if (names.length > MAX_DIMENSIONS) return `at most ${MAX_DIMENSIONS} dimensions`;
  for (const dimension of names) {
    const dimensionValue = dimensions[dimension];
    if (!NAME.test(dimension) || RESERVED.has(dimension) || dimension === name) return `dimension ${JSON.stringify(dimension)} must be a name like a metric's, other than the metric's, "_aws" and "tenant"`;
    if (typeof dimensionValue !== 'string' || dimensionValue.length === 0 || dimensionValue.length > 1024) return `dimension ${JSON.stringify(dimension)} needs a value of 1 to 1024 characters`;
  }
  if (options.properties && (Object.hasOwn(options.properties, '_aws') || Object.hasOwn(options.properties, name))) return 'properties must not be named "_aws" or like the metric';
  return undefined;
}
