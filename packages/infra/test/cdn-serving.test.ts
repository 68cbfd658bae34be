import * as fs from 'node:fs';
import * as vm from 'node:vm';
import { expect } from 'chai';
import fc from 'fast-check';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { isActiveContentType, type BucketDefinition } from '@framework/core';
import { AppBucket } from '../src/index.js';
import { allIntentsApp } from './fixtures/all-intents/app.js';

/**
 * The CDN's viewer-response function, run as CloudFront Functions would run it: the synthesized `FunctionCode` text
 * evaluated on its own (no module system, no Node globals), called with the event shape of AWS's documentation
 * (`fixtures/aws-samples/cloudfront-function-viewer-response.json`). Its decisions must equal core's policy, which
 * the local storage engine and presigned downloads apply.
 */
type ViewerResponseEvent = { response: { statusCode: number; headers: Record<string, { value: string }> } };
const SAMPLE = JSON.parse(fs.readFileSync(new URL('./fixtures/aws-samples/cloudfront-function-viewer-response.json', import.meta.url), 'utf8')) as ViewerResponseEvent;

function synthesizedBucket(inlineActiveContent: boolean): Template {
  const app = allIntentsApp('dev');
  const definition: BucketDefinition = { ...app.storage[0]!, cdn: true, inlineActiveContent };
  const stack = new Stack(new App(), 'Cdn');
  new AppBucket(stack, 'Uploads', { definition, resources: app.config.settings.resources });
  return Template.fromStack(stack);
}

function loadFunction(template: Template): (event: ViewerResponseEvent) => ViewerResponseEvent['response'] {
  const functions = Object.values(template.findResources('AWS::CloudFront::Function'));
  expect(functions).to.have.length(1);
  const config = functions[0]!.Properties as { FunctionCode: string; FunctionConfig: { Runtime: string } };
  expect(config.FunctionConfig.Runtime).to.equal('cloudfront-js-2.0');
  const context = vm.createContext({});
  vm.runInContext(config.FunctionCode, context);
  return context['handler'] as (event: ViewerResponseEvent) => ViewerResponseEvent['response'];
}

function answer(handler: ReturnType<typeof loadFunction>, contentType: string | undefined, statusCode = 200): Record<string, string> {
  const event = structuredClone(SAMPLE);
  event.response.statusCode = statusCode;
  if (contentType === undefined) delete event.response.headers['content-type'];
  else event.response.headers['content-type'] = { value: contentType };
  const headers = handler(event).headers;
  return Object.fromEntries(Object.entries(headers).map(([name, { value }]) => [name, value]));
}

describe('CDN serving policy (CloudFront viewer-response function and response headers policy)', () => {
  let strict: Template;
  let optedIn: Template;
  before(function () {
    this.timeout(60_000);
    strict = synthesizedBucket(false);
    optedIn = synthesizedBucket(true);
  });

  it('attaches nosniff, the sandbox CSP and the viewer-response function to the distribution', () => {
    strict.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: {
          ContentTypeOptions: { Override: true },
          ContentSecurityPolicy: { ContentSecurityPolicy: 'sandbox', Override: true },
        },
      },
    });
    optedIn.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: { SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: 'sandbox allow-scripts', Override: true } } },
    });
    const distribution = Object.values(strict.findResources('AWS::CloudFront::Distribution'))[0]!;
    const behavior = (distribution.Properties as { DistributionConfig: { DefaultCacheBehavior: Record<string, unknown> } }).DistributionConfig.DefaultCacheBehavior;
    expect(behavior['ResponseHeadersPolicyId']).to.not.equal(undefined);
    expect(behavior['FunctionAssociations']).to.have.length(1);
    expect((behavior['FunctionAssociations'] as { EventType: string }[])[0]!.EventType).to.equal('viewer-response');
  });

  it('serves the documented sample (a PNG) inline, untouched', () => {
    const handler = loadFunction(strict);
    const headers = answer(handler, 'image/png');
    expect(headers['content-type']).to.equal('image/png');
    expect(headers['content-disposition']).to.equal(undefined);
  });

  it('downloads HTML, SVG, XML and script as attachments; a bucket that opts in renders them', () => {
    const handler = loadFunction(strict);
    const inline = loadFunction(optedIn);
    for (const type of ['text/html', 'text/html; charset=utf-8', 'image/svg+xml', 'application/xml', 'text/javascript', 'application/x-unknown']) {
      expect(answer(handler, type)['content-disposition'], type).to.equal('attachment');
      expect(answer(inline, type)['content-disposition'], type).to.equal(undefined);
    }
  });

  it('sends a stored type that is not a media type as an octet-stream attachment', () => {
    for (const handler of [loadFunction(strict), loadFunction(optedIn)]) {
      for (const stored of [undefined, '', 'html', 'text/html garbage', 'text/']) {
        const headers = answer(handler, stored);
        expect(headers['content-type'], String(stored)).to.equal('application/octet-stream');
        expect(headers['content-disposition'], String(stored)).to.equal('attachment');
      }
    }
  });

  it("leaves S3's error answers alone", () => {
    const handler = loadFunction(strict);
    for (const status of [403, 404, 304]) expect(answer(handler, 'application/xml', status)['content-disposition']).to.equal(undefined);
  });

  it("decides every media type as core's policy does (the local engine's and presigned downloads')", () => {
    const handler = loadFunction(strict);
    const token = fc.stringMatching(/^[a-z0-9][a-z0-9!#$&^_.+-]{0,15}$/);
    const family = fc.constantFrom('image', 'audio', 'video', 'font', 'text', 'application', 'model', 'multipart');
    const type = fc.oneof(fc.tuple(family, token).map(([f, t]) => `${f}/${t}`), fc.constantFrom('text/plain', 'text/csv', 'application/json', 'application/pdf', 'image/svg+xml', 'text/xml'));
    fc.assert(
      fc.property(type, fc.boolean(), (mediaType, upperCase) => {
        const stored = upperCase ? mediaType.toUpperCase() : mediaType;
        const expected = isActiveContentType(mediaType) ? 'attachment' : undefined;
        expect(answer(handler, stored)['content-disposition'], stored).to.equal(expected);
      }),
      { numRuns: 500 },
    );
  });
});
