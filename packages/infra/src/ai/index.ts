export * from './bedrock-model-grant.js';
