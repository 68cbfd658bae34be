import type { BaseConfig } from '../config/base.js';
import type { BillingConfig } from '../config/billing.js';
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
  /**
   * The app's plans (`@framework-pro/billing`): prices, trial days, features and limits, checked here when the app is
   * built; the functions pass the same object to `createBilling`.
   * @default - no billing
   */
  readonly billing?: BillingConfig;
  /** Project folder the directories are relative to. @default - `FW_PROJECT_ROOT`, else the current directory */
  readonly rootDir?: string;
  /** Stage to build. @default - `FW_STAGE`, else 'dev' */
  readonly stage?: string;
}
