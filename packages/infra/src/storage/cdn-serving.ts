import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { objectSecurityHeaders, PASSIVE_MEDIA_FAMILIES, PASSIVE_MEDIA_TYPES } from '@framework/core';
import type { Construct } from 'constructs';

/**
 * The source of the CloudFront Function (runtime `cloudfront-js-2.0`, viewer response) that gives public CDN objects
 * the serving policy the local engine and presigned downloads apply: an active type (HTML, SVG, XML, script, any type
 * not known to be passive) is sent as `Content-Disposition: attachment` unless the bucket opts in with
 * `inlineActiveContent`; a stored type that is not a media type is sent as `application/octet-stream`, attachment.
 * The lists come from core, so the three places cannot drift. Plain ES5 on purpose: the Functions runtime is a
 * restricted JavaScript engine, and the test runs this very text against AWS's documented event shape.
 */
export function cdnServingFunctionSource(inlineActiveContent: boolean): string {
  return `var PASSIVE_FAMILIES = ${JSON.stringify(PASSIVE_MEDIA_FAMILIES)};
var PASSIVE_TYPES = ${JSON.stringify(PASSIVE_MEDIA_TYPES)};
var INLINE_ACTIVE_CONTENT = ${inlineActiveContent ? 'true' : 'false'};
var MEDIA_TYPE = /^[!#$%&'*+.^_\`|~0-9a-z-]+\\/[!#$%&'*+.^_\`|~0-9a-z-]+$/;

function isActive(type) {
  if (type.endsWith('+xml') || type.endsWith('/xml')) return true;
  if (PASSIVE_TYPES.indexOf(type) !== -1) return false;
  for (var i = 0; i < PASSIVE_FAMILIES.length; i++) if (type.startsWith(PASSIVE_FAMILIES[i])) return false;
  return true;
}

function handler(event) {
  var response = event.response;
  // Only object bodies: S3's error answers (403, 404) and 304s keep their headers.
  if (response.statusCode !== 200 && response.statusCode !== 206) return response;
  var headers = response.headers;
  var stored = headers['content-type'] ? headers['content-type'].value : '';
  var type = stored.split(';')[0].trim().toLowerCase();
  if (!MEDIA_TYPE.test(type)) {
    headers['content-type'] = { value: 'application/octet-stream' };
    headers['content-disposition'] = { value: 'attachment' };
  } else if (!INLINE_ACTIVE_CONTENT && isActive(type)) {
    headers['content-disposition'] = { value: 'attachment' };
  }
  return response;
}
`;
}

/** What a CDN distribution of a bucket adds to every object answer: the policy's headers, and its viewer function. */
export interface CdnServing {
  readonly responseHeadersPolicy: cloudfront.IResponseHeadersPolicy;
  readonly viewerResponse: cloudfront.FunctionAssociation;
}

/**
 * The serving policy of a CDN distribution: a response headers policy with `nosniff` and the sandbox CSP (the same
 * headers the local engine sends), and the viewer-response function above. Both override what the object stored.
 */
export function cdnServing(scope: Construct, inlineActiveContent: boolean): CdnServing {
  const headers = objectSecurityHeaders(inlineActiveContent);
  const responseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(scope, 'ServingHeaders', {
    comment: 'Stored objects: never sniffed, sandboxed',
    securityHeadersBehavior: {
      contentTypeOptions: { override: true },
      contentSecurityPolicy: { contentSecurityPolicy: headers['content-security-policy'], override: true },
    },
  });
  const fn = new cloudfront.Function(scope, 'ServingPolicy', {
    comment: 'Active content types are downloaded, not rendered',
    runtime: cloudfront.FunctionRuntime.JS_2_0,
    code: cloudfront.FunctionCode.fromInline(cdnServingFunctionSource(inlineActiveContent)),
  });
  return { responseHeadersPolicy, viewerResponse: { function: fn, eventType: cloudfront.FunctionEventType.VIEWER_RESPONSE } };
}
