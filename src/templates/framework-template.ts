/** The project templates of `fw init` and `projen new --from @framework/projen`. */
export enum FrameworkTemplate {
  /** REST API with auth and scoped endpoints: `GET /health` (public), `GET`/`POST /tasks` (authenticated). */
  API = 'api',
  /** The API with a PostgreSQL database and migrations. */
  API_DATABASE = 'api-database',
  /** The API with a message queue and its consumer. */
  API_QUEUE = 'api-queue',
  /** The API with object storage and presigned file uploads. */
  API_STORAGE = 'api-storage',
  /** API + database + storage + queue. */
  FULLSTACK = 'fullstack',
}
