export { paginate, type OrderColumn, type Page, type PaginateOptions } from './keyset.js';
