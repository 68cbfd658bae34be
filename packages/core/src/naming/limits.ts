/** Name length limits of the cloud's resources (characters). */
export const NAME_LIMITS = {
  /** Lambda function name. */
  lambdaFunction: 64,
  /** SQS queue name (a FIFO queue's `.fifo` suffix included). */
  sqsQueue: 80,
  /** EventBridge Scheduler schedule / EventBridge rule name. */
  scheduleRule: 64,
  /** ElastiCache Serverless cache name. */
  cache: 40,
  /** DynamoDB table name. */
  dynamoTable: 255,
  /** CloudFormation stack name. */
  stack: 128,
  /** Cognito user pool name. */
  userPool: 128,
  /** Cognito hosted domain prefix. */
  cognitoDomainPrefix: 63,
} as const;
