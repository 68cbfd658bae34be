export { Database, transactionBackoff, type DatabaseOptions } from './database.js';
export { SettingsBoundDatabase } from './settings-bound-database.js';
export { getDatabase, closeDatabases } from './get-database.js';
export { connectionSettings, databaseTokensInEnv, isDeployedLambda, LOCAL_SECRET, LAMBDA_CA_BUNDLE, tlsSettings } from './connection-settings.js';
export { readDatabaseSecret, forgetDatabaseSecret, type DatabaseSecret } from './database-secret.js';
export { isConnectionLost, mapConstraintError, mapDataException, sqlState, RETRYABLE_TRANSACTION_STATES } from './pg-errors.js';
export {
  isIdempotentRead,
  type DataLogger,
  type IsolationLevel,
  type Queryable,
  type QueryOptions,
  type QueryResult,
  type Row,
  type Transaction,
  type TransactionOptions,
} from './query-runner.js';
export { setTransactionSettingsProvider, currentTransactionSettings, settingsStatement, type TransactionSettings, type TransactionSettingsProvider } from './transaction-settings.js';
