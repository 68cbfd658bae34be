import { expect } from 'chai';
import { objectCreatedEvent, objectsCreated } from '../src/index.js';

describe('upload events', () => {
  // Shape of a real S3 notification as it arrives in an SQS message body (trimmed of fields nobody reads).
  const fromS3 = {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: 'eu-west-1',
        eventTime: '2026-11-21T10:00:00.000Z',
        eventName: 'ObjectCreated:Post',
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'uploads-0',
          bucket: { name: 'acme-prod-uploads', arn: 'arn:aws:s3:::acme-prod-uploads' },
          object: { key: 'in/my+photo+%281%29.png', size: 1234, eTag: '0123456789abcdef0123456789abcdef', sequencer: '0055AED6DCD90281E5' },
        },
      },
    ],
  };

  it('decodes the keys of an S3 event, from the object or from a queue message body', () => {
    const expected = { bucket: 'acme-prod-uploads', key: 'in/my photo (1).png', size: 1234, etag: '0123456789abcdef0123456789abcdef', eventName: 'ObjectCreated:Post', eventTime: '2026-11-21T10:00:00.000Z' };
    expect(objectsCreated(fromS3)).to.deep.equal([expected]);
    expect(objectsCreated(JSON.stringify(fromS3))).to.deep.equal([expected]);
  });

  it('ignores S3 test events', () => {
    expect(objectsCreated({ Service: 'Amazon S3', Event: 's3:TestEvent', Bucket: 'acme-prod-uploads' })).to.deep.equal([]);
  });

  it('builds the same shape locally, and it reads back to the same object', () => {
    const event = objectCreatedEvent({ bucket: 'uploads', key: 'in/my photo (1).png', size: 3, etag: '"abc"', eventName: 'ObjectCreated:Post', region: 'eu-west-1', configurationId: 'uploads-0' });
    expect(event.Records[0]!.s3.object.key).to.equal('in/my+photo+(1).png');
    expect(objectsCreated(event)[0]).to.include({ key: 'in/my photo (1).png', etag: 'abc', bucket: 'uploads' });
  });
});
