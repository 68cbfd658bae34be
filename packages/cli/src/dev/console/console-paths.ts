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
  /** Server-sent events: every request, queue batch, cron run and invocation (`ConsoleEvent`). */
  events: `${DEV_PATH_ROOT}/events`,
} as const;
