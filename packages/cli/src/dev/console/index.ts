/** fw dev's console: the page at `/_dev` and the endpoints only it uses. */
export { consolePlugin, consoleAppSummary, consoleCrons, type ConsoleAppSummary, type ConsoleCron } from './console-plugin.js';
export { CONSOLE_PAGE_PATH, CONSOLE_PATHS } from './console-paths.js';
export { ConsoleEventStream, type ConsoleEvent } from './event-stream.js';
export { RequestRecords, type RequestRecord, type RequestLogLine } from './request-records.js';
export { DevProblems, type DevProblem } from './dev-problems.js';
