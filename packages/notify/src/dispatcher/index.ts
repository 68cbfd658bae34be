export { Dispatcher, recordDeliveryEvent, type DeliveryEventStatus, type DispatcherOptions, type DispatchReport } from './dispatcher.js';
export { outboxQueueConsumer, outboxSweeper, type DispatcherUnitOptions } from './handlers.js';
export { retryDelaySeconds } from './backoff.js';
