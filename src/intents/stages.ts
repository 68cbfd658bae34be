/** The one-word sizing shortcuts of a stage. */
export enum Preset {
  FREE = 'free',
  NANO = 'nano',
  MICRO = 'micro',
  MEDIUM = 'medium',
  LARGE = 'large',
}

/** Overrides of the preset's function settings. */
export interface FunctionSettingsOverrides {
  /** @default - the preset's value */
  readonly memorySize?: number;
  /** @default - the preset's value */
  readonly timeout?: number;
  /** `nodejs20.x` or `nodejs22.x`. @default - the preset's value */
  readonly runtime?: string;
  /** `arm64` or `x86_64`. @default - the preset's value */
  readonly architecture?: string;
  /** @default - the preset's value */
  readonly tracing?: boolean;
}

/** Overrides of the preset's log settings. */
export interface LogSettingsOverrides {
  /** `debug`, `info`, `warn` or `error`. @default - the preset's value */
  readonly level?: string;
  /** @default - the preset's value */
  readonly retentionDays?: number;
}

/** Overrides of the preset's network settings. */
export interface NetworkSettingsOverrides {
  /** @default - the preset's value */
  readonly natGateways?: number;
  /** @default - the preset's value */
  readonly maxAzs?: number;
}

/** Overrides of the preset's database settings. */
export interface DatabaseSettingsOverrides {
  /** `rds-instance` or `aurora-serverless-v2`. @default - the preset's value */
  readonly engine?: string;
  /** @default - the preset's value */
  readonly instanceClass?: string;
  /** @default - the preset's value */
  readonly minCapacity?: number;
  /** @default - the preset's value */
  readonly maxCapacity?: number;
  /** @default - the preset's value */
  readonly allocatedStorageGb?: number;
  /** @default - the preset's value */
  readonly backupRetentionDays?: number;
  /** @default - the preset's value */
  readonly multiAz?: boolean;
  /** @default - the preset's value */
  readonly deletionProtection?: boolean;
}

/** Overrides of the preset's cache settings. */
export interface CacheSettingsOverrides {
  /** @default - the preset's value */
  readonly maxDataStorageGb?: number;
  /** @default - the preset's value */
  readonly maxEcpuPerSecond?: number;
}

/** Overrides of the preset's API settings. */
export interface ApiSettingsOverrides {
  /** @default - the preset's value */
  readonly throttlingRateLimit?: number;
  /** @default - the preset's value */
  readonly throttlingBurstLimit?: number;
}

/** Overrides of the preset's resource settings. */
export interface ResourceSettingsOverrides {
  /** `destroy`, `retain` or `snapshot`. @default - the preset's value */
  readonly removalPolicy?: string;
}

/** Any preset field, replaced for one stage. */
export interface StageOverrides {
  /** @default - none */
  readonly functions?: FunctionSettingsOverrides;
  /** @default - none */
  readonly logs?: LogSettingsOverrides;
  /** @default - none */
  readonly network?: NetworkSettingsOverrides;
  /** @default - none */
  readonly databases?: DatabaseSettingsOverrides;
  /** @default - none */
  readonly caches?: CacheSettingsOverrides;
  /** @default - none */
  readonly api?: ApiSettingsOverrides;
  /** @default - none */
  readonly resources?: ResourceSettingsOverrides;
}

/** One stage (`config/<name>.ts`): a preset plus overrides. */
export interface Stage {
  /** Lowercase letters, digits or `-`, starting with a letter (`dev`, `prod`). */
  readonly name: string;
  readonly preset: Preset;
  /** @default - none */
  readonly overrides?: StageOverrides;
  /** Local sign-in (`fw dev` only; deployed, users live in the Cognito user pool). @default - none */
  readonly auth?: StageAuth;
}

/** A stage's local sign-in (core's `envs.<stage>.auth`). */
export interface StageAuth {
  /** Users `fw dev` seeds into its user store (`.fw/dev/auth/users.json`) for its login page. @default - none */
  readonly users?: SeededUser[];
}

/** A user `fw dev` seeds for its login page; the password is hashed before it is stored. */
export interface SeededUser {
  readonly username: string;
  /** A dev password (at least 8 characters), never a real one: it is written into `config/<stage>.ts`. */
  readonly password: string;
  /** Role names; each must be declared in `roles`. @default - none */
  readonly roles?: string[];
  /** @default - none */
  readonly email?: string;
  /**
   * The user's tenant in a multi-tenant app: their tokens carry it as `custom:tenant_id`.
   * @default - none
   */
  readonly tenant?: string;
}
