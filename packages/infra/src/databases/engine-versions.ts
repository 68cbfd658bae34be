import * as rds from 'aws-cdk-lib/aws-rds';
import { InfraError } from '../errors.js';

/** The engine versions one PostgreSQL major deploys as. */
export interface PinnedPostgresVersion {
  /** RDS for PostgreSQL (presets with `databases.engine: 'postgres'`). */
  readonly instance: rds.PostgresEngineVersion;
  /** Aurora PostgreSQL (presets with `databases.engine: 'aurora-serverless-v2'`). */
  readonly aurora: rds.AuroraPostgresEngineVersion;
}

/**
 * The one place that pins database engine versions: per PostgreSQL major, the newest minor this aws-cdk-lib knows
 * for RDS and for Aurora (they differ: the two services release minors separately). RDS deprecates old minors for
 * new databases, and aws-cdk-lib marks them `@deprecated`; `test/engine-versions.test.ts` fails when a pin here is
 * deprecated or no longer the newest minor of its major, so an aws-cdk-lib upgrade prompts a deliberate bump.
 * A database intent picks a major (`engineVersion: '16'`) or an exact version (`'16.13'`); core's
 * `DEFAULT_POSTGRES_VERSION` is the default major.
 */
export const POSTGRES_VERSIONS: Readonly<Record<string, PinnedPostgresVersion>> = {
  '16': { instance: rds.PostgresEngineVersion.VER_16_13, aurora: rds.AuroraPostgresEngineVersion.VER_16_13 },
  '17': { instance: rds.PostgresEngineVersion.VER_17_9, aurora: rds.AuroraPostgresEngineVersion.VER_17_9 },
  '18': { instance: rds.PostgresEngineVersion.VER_18_3, aurora: rds.AuroraPostgresEngineVersion.VER_18_6 },
};

/** The engine versions of a database intent's `engineVersion` (a pinned major, or an exact `major.minor`). */
export function postgresVersionOf(engineVersion: string): PinnedPostgresVersion {
  const [major, minor] = engineVersion.split('.');
  if (minor === undefined) {
    const pinned = POSTGRES_VERSIONS[engineVersion];
    if (!pinned) {
      throw new InfraError('FW_ERR_INFRA_ENGINE_VERSION', `PostgreSQL ${engineVersion} is not a major this version of @framework/infra pins (pinned: ${Object.keys(POSTGRES_VERSIONS).join(', ')}). Set the database intent's engineVersion to one of them, or to an exact version RDS offers, such as "${engineVersion}.1".`);
    }
    return pinned;
  }
  return { instance: rds.PostgresEngineVersion.of(engineVersion, major!), aurora: rds.AuroraPostgresEngineVersion.of(engineVersion, major!) };
}
