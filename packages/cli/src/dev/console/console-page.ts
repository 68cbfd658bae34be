import { CONSOLE_PATHS } from './console-paths.js';

/**
 * The console's HTML: a tab list and one panel per tab, filled by the script. No inline script or style (a later
 * Content-Security-Policy can forbid both) and nothing from another origin.
 */
export function consolePage(project: string): string {
  const title = `${project.replace(/[<>&"]/g, '')} (fw dev console)`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${CONSOLE_PATHS.style}">
</head>
<body>
<header><h1>${title}</h1></header>
<nav role="tablist" aria-label="Console sections" id="tabs"></nav>
<main id="panels"></main>
<script src="${CONSOLE_PATHS.script}"></script>
</body>
</html>
`;
}
