import { Duration } from 'aws-cdk-lib/core';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { BucketDefinition, ResourceSettings } from '@framework/core';
import { Construct } from 'constructs';
import { acknowledgeNag } from '../checks/nag-suppressions.js';
import { dataRemovalPolicy } from '../stack/removal-policy.js';
import { cdnServing } from './cdn-serving.js';

/** Props of `AppBucket`. */
export interface AppBucketProps {
  readonly definition: BucketDefinition;
  readonly resources: ResourceSettings;
}

/** Incomplete multipart uploads are aborted after this many days unless a rule says otherwise. */
export const DEFAULT_ABORT_INCOMPLETE_UPLOAD_DAYS = 7;

/**
 * A storage intent: a private S3 bucket (public access blocked, S3-managed encryption, TLS enforced) with the
 * intent's lifecycle rules and CORS origins, and a CloudFront distribution reading it through origin access control
 * when `cdn` is set, serving objects with the same policy as the local engine (`cdn-serving.ts`). Every bucket aborts
 * incomplete multipart uploads (presigned uploads that never finished).
 */
export class AppBucket extends Construct {
  public readonly definition: BucketDefinition;
  public readonly bucket: s3.Bucket;
  public readonly distribution?: cloudfront.Distribution;
  /** Base URL objects are served from: the distribution when `cdn`, else the bucket's regional endpoint. */
  public readonly publicUrl: string;

  constructor(scope: Construct, id: string, props: AppBucketProps) {
    super(scope, id);
    const { definition } = props;
    this.definition = definition;
    const rules: s3.LifecycleRule[] = definition.lifecycle.map((rule, i) => ({
      id: `rule-${i}`,
      prefix: rule.prefix,
      expiration: rule.expireAfterDays !== undefined ? Duration.days(rule.expireAfterDays) : undefined,
      abortIncompleteMultipartUploadAfter: Duration.days(rule.abortIncompleteUploadsAfterDays ?? DEFAULT_ABORT_INCOMPLETE_UPLOAD_DAYS),
      transitions: [
        ...(rule.infrequentAccessAfterDays !== undefined ? [{ storageClass: s3.StorageClass.INFREQUENT_ACCESS, transitionAfter: Duration.days(rule.infrequentAccessAfterDays) }] : []),
        ...(rule.archiveAfterDays !== undefined ? [{ storageClass: s3.StorageClass.GLACIER, transitionAfter: Duration.days(rule.archiveAfterDays) }] : []),
      ],
    }));
    if (!definition.lifecycle.some((r) => r.prefix === undefined || r.prefix === '')) {
      rules.push({ id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(DEFAULT_ABORT_INCOMPLETE_UPLOAD_DAYS) });
    }
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: definition.versioned,
      lifecycleRules: rules,
      cors: definition.corsOrigins.length
        ? [{ allowedOrigins: [...definition.corsOrigins], allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.PUT, s3.HttpMethods.POST, s3.HttpMethods.HEAD], allowedHeaders: ['*'], exposedHeaders: ['ETag'], maxAge: 3000 }]
        : undefined,
      removalPolicy: dataRemovalPolicy(props.resources),
    });
    acknowledgeNag(this.bucket, 'bucketAccessLogs');
    if (definition.cdn) {
      const serving = cdnServing(this, definition.inlineActiveContent);
      this.distribution = new cloudfront.Distribution(this, 'Cdn', {
        comment: `${definition.id} objects`,
        defaultBehavior: {
          origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
          responseHeadersPolicy: serving.responseHeadersPolicy,
          functionAssociations: [serving.viewerResponse],
        },
        minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
        httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      });
      for (const key of ['cdnGeo', 'cdnWaf', 'cdnLogs', 'cdnTls'] as const) acknowledgeNag(this.distribution, key);
      this.publicUrl = `https://${this.distribution.distributionDomainName}`;
    } else {
      this.publicUrl = `https://${this.bucket.bucketRegionalDomainName}`;
    }
  }

  /** List and read objects (presigned downloads are signed with the function's own role). */
  public grantRead(grantee: IGrantable): void {
    this.bucket.grantRead(grantee);
  }

  /** Read, write and delete objects (presigned URLs are signed with the function's own role). */
  public grantReadWrite(grantee: IGrantable): void {
    this.bucket.grantReadWrite(grantee);
  }
}
