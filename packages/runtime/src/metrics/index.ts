export { putMetric, setMetricSink, type MetricOptions, type MetricSink, type MetricUnit } from './put-metric.js';
