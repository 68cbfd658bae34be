/** `@framework/testing`: the whole app in a test. */
export { startApp, type StartAppOptions } from './app/start-app.js';
export type { CapturedLog, InvokeResult, TestApp, TestClock, TraceEntry } from './app/test-app.js';
export type { Identity } from './auth/identity.js';
export type { DeployedMachineClients } from './auth/token-source.js';
export { DatabaseSnapshot, type DatabaseEndpoint } from './data/database-snapshot.js';
export type { TestDatabase } from './data/test-database.js';
export { durationMs, type Duration } from './duration.js';
export { TestingError, TESTING_ERROR_CODES } from './errors.js';
export { HttpClient, type ClientFactoryOptions, type HttpRequestOptions, type HttpResponse } from './http/http-client.js';
export type { BucketObserver, QueueObserver, StoredObject } from './observe/local-observers.js';
