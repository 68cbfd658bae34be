import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { expect } from 'chai';
import { DEFAULT_POSTGRES_VERSION } from '@framework/core';
import { POSTGRES_VERSIONS, postgresVersionOf } from '../src/index.js';

/**
 * The versions aws-cdk-lib declares on a class of aws-rds (`static readonly VER_17_9`), with whether its doc comment
 * says `@deprecated` (how aws-cdk-lib marks versions RDS no longer offers for new databases).
 */
function declaredVersions(file: string, className: string): Map<string, { deprecated: boolean }> {
  const dts = fs.readFileSync(path.join(path.join(path.dirname(createRequire(import.meta.url).resolve('aws-cdk-lib')), 'aws-rds', 'lib'), file), 'utf8');
  const start = dts.indexOf(`export declare class ${className} `);
  expect(start, `${className} in ${file}`).to.be.greaterThan(-1);
  const body = dts.slice(start, dts.indexOf('\nexport declare', start + 1));
  const versions = new Map<string, { deprecated: boolean }>();
  for (const match of body.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*static readonly (VER_\w+):/g)) {
    versions.set(match[2]!, { deprecated: match[1]!.includes('@deprecated') });
  }
  return versions;
}

/** `17.9` → `VER_17_9`. */
const propertyOf = (version: string) => `VER_${version.replace(/\./g, '_')}`;

/** The newest non-deprecated `major.minor` aws-cdk-lib declares for a major (special editions such as LIMITLESS aside). */
function newestMinor(versions: Map<string, { deprecated: boolean }>, major: string): string | undefined {
  const minors = [...versions]
    .map(([name, v]) => ({ m: /^VER_(\d+)_(\d+)$/.exec(name), v }))
    .filter(({ m, v }) => m && m[1] === major && !v.deprecated)
    .map(({ m }) => Number(m![2]));
  return minors.length ? `${major}.${Math.max(...minors)}` : undefined;
}

describe('database engine versions', () => {
  const instanceVersions = declaredVersions('instance-engine.d.ts', 'PostgresEngineVersion');
  const auroraVersions = declaredVersions('cluster-engine.d.ts', 'AuroraPostgresEngineVersion');

  it('pins, per major, a version aws-cdk-lib does not mark deprecated', () => {
    for (const [major, pinned] of Object.entries(POSTGRES_VERSIONS)) {
      const instance = instanceVersions.get(propertyOf(pinned.instance.postgresFullVersion));
      const aurora = auroraVersions.get(propertyOf(pinned.aurora.auroraPostgresFullVersion));
      expect(instance, `RDS ${pinned.instance.postgresFullVersion}`).to.deep.equal({ deprecated: false });
      expect(aurora, `Aurora ${pinned.aurora.auroraPostgresFullVersion}`).to.deep.equal({ deprecated: false });
      expect(pinned.instance.postgresMajorVersion).to.equal(major);
      expect(pinned.aurora.auroraPostgresMajorVersion).to.equal(major);
    }
  });

  it('pins the newest minor aws-cdk-lib knows for each major (bump the pins when aws-cdk-lib adds one)', () => {
    for (const [major, pinned] of Object.entries(POSTGRES_VERSIONS)) {
      expect(pinned.instance.postgresFullVersion, `RDS ${major}`).to.equal(newestMinor(instanceVersions, major));
      expect(pinned.aurora.auroraPostgresFullVersion, `Aurora ${major}`).to.equal(newestMinor(auroraVersions, major));
    }
  });

  it('pins the default major of core, and resolves a major or an exact version of a database intent', () => {
    expect(POSTGRES_VERSIONS).to.have.property(DEFAULT_POSTGRES_VERSION);
    expect(postgresVersionOf('16').instance.postgresFullVersion).to.equal(POSTGRES_VERSIONS['16']!.instance.postgresFullVersion);
    expect(postgresVersionOf('17.5').aurora.auroraPostgresFullVersion).to.equal('17.5');
    expect(() => postgresVersionOf('12')).to.throw(/FW_ERR_INFRA_ENGINE_VERSION|not a major/).with.property('code', 'FW_ERR_INFRA_ENGINE_VERSION');
  });
});
