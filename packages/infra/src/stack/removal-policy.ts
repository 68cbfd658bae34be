import { RemovalPolicy } from 'aws-cdk-lib/core';
import type { ResourceSettings } from '@framework/core';

/** The preset's removal policy for resources that support snapshots (databases). */
export function snapshotRemovalPolicy(settings: ResourceSettings): RemovalPolicy {
  return settings.removalPolicy === 'destroy' ? RemovalPolicy.DESTROY : settings.removalPolicy === 'retain' ? RemovalPolicy.RETAIN : RemovalPolicy.SNAPSHOT;
}

/** The same for resources without snapshots (buckets, tables, user pools): `snapshot` keeps them. */
export function dataRemovalPolicy(settings: ResourceSettings): RemovalPolicy {
  return settings.removalPolicy === 'destroy' ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
}
