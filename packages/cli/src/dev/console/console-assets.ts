// The dev console's page, script and style, in a module of their own: the console plugin imports it at the first
// request for them, not when fw dev starts.
import { AUTH_TAB_SCRIPT } from './assets/auth-tab-script.js';
import { CRONS_TAB_SCRIPT } from './assets/crons-tab-script.js';
import { DATA_TAB_SCRIPT } from './assets/data-tab-script.js';
import { ERRORS_TAB_SCRIPT } from './assets/errors-tab-script.js';
import { FUNCTIONS_TAB_SCRIPT } from './assets/functions-tab-script.js';
import { INBOX_TAB_SCRIPT } from './assets/inbox-tab-script.js';
import { STORAGE_TAB_SCRIPT } from './assets/storage-tab-script.js';
import { QUEUES_TAB_SCRIPT } from './assets/queues-tab-script.js';
import { REQUESTS_TAB_SCRIPT } from './assets/requests-tab-script.js';
import { ROUTES_TAB_SCRIPT } from './assets/routes-tab-script.js';
import { SHELL_SCRIPT } from './assets/shell-script.js';

export { CONSOLE_STYLE } from './assets/console-style.js';
export { consolePage } from './console-page.js';

/**
 * The tabs, in the order they are shown: each is one script that registers itself with the shell. A new tab is a
 * new file in `assets/` and one line here (one line per tab, so tabs added in parallel do not conflict).
 */
const TAB_SCRIPTS: readonly string[] = [
  ROUTES_TAB_SCRIPT,
  REQUESTS_TAB_SCRIPT,
  QUEUES_TAB_SCRIPT,
  CRONS_TAB_SCRIPT,
  FUNCTIONS_TAB_SCRIPT,
  DATA_TAB_SCRIPT,
  STORAGE_TAB_SCRIPT,
  AUTH_TAB_SCRIPT,
  INBOX_TAB_SCRIPT,
  ERRORS_TAB_SCRIPT,
];
/** One script for the page (one request), built once: the shell, the tabs, then the start. */
export const CONSOLE_SCRIPT = `${SHELL_SCRIPT}${TAB_SCRIPTS.join('')}\nwindow.fwConsole.start();\n`;

