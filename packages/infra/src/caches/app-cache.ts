import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as elasticache from 'aws-cdk-lib/aws-elasticache';
import type { CacheDefinition, CacheSettings } from '@framework/core';
import { Construct } from 'constructs';
import type { AppNetwork } from '../network/app-network.js';

/** Props of `AppCache`. */
export interface AppCacheProps {
  readonly definition: CacheDefinition;
  /** Storage and ECPU limits, from the stage's preset. */
  readonly settings: CacheSettings;
  readonly network: AppNetwork;
}

/** Serverless caches listen on this port (TLS required). */
export const CACHE_PORT = 6379;

/**
 * A cache intent: ElastiCache Serverless (Valkey or Redis OSS) in the private subnets, with the preset's usage
 * limits, admitting only the app's function security group. `endpoint` is a `rediss://host:port` URL (TLS required):
 * the scheme tells a client it speaks the Redis protocol over TLS, where `fw dev` serves an `http://` endpoint.
 */
export class AppCache extends Construct {
  public readonly definition: CacheDefinition;
  public readonly cache: elasticache.CfnServerlessCache;
  public readonly securityGroup: ec2.SecurityGroup;
  public readonly endpoint: string;

  constructor(scope: Construct, id: string, props: AppCacheProps) {
    super(scope, id);
    const { definition, settings, network } = props;
    this.definition = definition;
    this.securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', { vpc: network.vpc, description: `Cache ${definition.id}`, allowAllOutbound: false });
    this.securityGroup.addIngressRule(network.functionSecurityGroup, ec2.Port.tcp(CACHE_PORT), 'Functions of the app');
    this.cache = new elasticache.CfnServerlessCache(this, 'Cache', {
      serverlessCacheName: definition.cacheName,
      engine: definition.engine,
      majorEngineVersion: definition.engine === 'valkey' ? '8' : '7',
      cacheUsageLimits: {
        dataStorage: { maximum: settings.maxDataStorageGb, unit: 'GB' },
        ecpuPerSecond: { maximum: settings.maxEcpuPerSecond },
      },
      securityGroupIds: [this.securityGroup.securityGroupId],
      subnetIds: network.vpc.selectSubnets(network.privateSubnets).subnetIds.slice(0, 3),
    });
    this.endpoint = `rediss://${this.cache.attrEndpointAddress}:${this.cache.attrEndpointPort}`;
  }
}
