import { DEV_PATH_ROOT } from '@framework/core';

/** The dev console's page: `/_dev` itself, so the URL people remember is the one fw dev prints. */
export const CONSOLE_PAGE_PATH = DEV_PATH_ROOT;
/** Its script, style sheet and the app summary it reads (under `/_dev/`, so the guard keeps them to this machine). */
export const CONSOLE_PATHS = {
  script: `${DEV_PATH_ROOT}/console/console.js`,
  style: `${DEV_PATH_ROOT}/console/console.css`,
  app: `${DEV_PATH_ROOT}/console/app`,
  /** The crons with their next fire time. */
  crons: `${DEV_PATH_ROOT}/console/crons`,
  /** `/<request id>`: a request's event, answer and log lines (`RequestRecord`). */
  requests: `${DEV_PATH_ROOT}/console/requests`,
  /** What is broken right now (`DevProblem[]`). */
  errors: `${DEV_PATH_ROOT}/console/errors`,
  /** `POST { action, args }`: a user call of the dev issuer's user store (as `/_dev/auth/admin`, without its secret). */
  auth: `${DEV_PATH_ROOT}/console/auth`,
  /** `POST /<database id>/query { sql }` and `GET`: the databases' tables, migrations, a read-only query. */
  databases: `${DEV_PATH_ROOT}/console/databases`,
  /** `POST /<bucket id> { action, ... }`: list, presign an upload or a download, delete. */
  storage: `${DEV_PATH_ROOT}/console/storage`,
  /** Server-sent events: every request, queue batch, cron run and invocation (`ConsoleEvent`). */
  events: `${DEV_PATH_ROOT}/events`,
} as const;
