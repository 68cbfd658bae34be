import { en } from 'zod/locales';
import { config } from 'zod/mini';

// Every schema of the example is written with `zod/mini` (same engine, issues and JSON Schema as `zod`, functions
// instead of methods), imported from here as `import * as z from '.../lib/zod.js'`: esbuild keeps only the checks a
// route uses, so a route's bundle carries tens of KB of zod instead of the 444 KB classic `zod` pulls in whole.
// Re-exported with `export *` (not as one object: a namespace passed around as a value keeps all of zod/mini in the
// bundle). `zod/mini` ships no messages by default; the English locale, configured once here, gives the same
// messages as `zod` (the 400 bodies are unchanged).
config(en());

export * from 'zod/mini';
