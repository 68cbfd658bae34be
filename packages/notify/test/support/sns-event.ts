/** A Lambda event from an SNS subscription carrying `messages` (the shape of AWS's documented SNS event sample). */
export function snsEvent(...messages: unknown[]): unknown {
  return {
    Records: messages.map((message, index) => ({
      EventVersion: '1.0',
      EventSubscriptionArn: 'arn:aws:sns:us-east-1:123456789012:notify-events:2bcfbf39-05c3-41de-beaa-fcfcc21c8f55',
      EventSource: 'aws:sns',
      Sns: {
        SignatureVersion: '1',
        Timestamp: '2019-01-02T12:45:07.000Z',
        Signature: 'tcc6faL2yUC6dgZdmrwh1Y4cGa/ebXEkAi6RibDsvpi+tE/1+82j...65r==',
        SigningCertUrl: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-ac565b8b1a6c5d002d285f9598aa1d9b.pem',
        MessageId: `95df01b4-ee98-5cb9-9903-4c221d41eb5${index}`,
        Message: JSON.stringify(message),
        MessageAttributes: {},
        Type: 'Notification',
        UnsubscribeUrl: 'https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe',
        TopicArn: 'arn:aws:sns:us-east-1:123456789012:notify-events',
        Subject: null,
      },
    })),
  };
}
