import type { BaseConfig } from '../config/base.js';
import type { EnvironmentConfig } from '../config/environment.js';
import type { Infrastructure } from '../config/intents.js';
import type { SecurityConfig } from '../config/security.js';

/** Options of `defineApp` (`fw.config.ts`). */
export interface AppOptions {
  readonly base: BaseConfig;
  readonly security: SecurityConfig;
  /** Stage name → environment, e.g. `{ dev, prod }`. */
  readonly envs: Readonly<Record<string, EnvironmentConfig>>;
  /** @default 'src/routes' */
  readonly routesDir?: string;
  /** @default 'src/functions' */
  readonly functionsDir?: string;
  /** @default {} */
  readonly infrastructure?: Infrastructure;
  /** Project folder the directories are relative to. @default - `FW_PROJECT_ROOT`, else the current directory */
  readonly rootDir?: string;
  /** Stage to build. @default - `FW_STAGE`, else 'dev' */
  readonly stage?: string;
}
