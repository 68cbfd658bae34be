export { sql, type Sql, type SqlValue } from './sql.js';
export { SqlFragment, isSqlFragment, type CompiledQuery } from './sql-fragment.js';
