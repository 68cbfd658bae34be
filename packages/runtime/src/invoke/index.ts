export { invoke, resetLambdaClient, type InvokeOptions, type InvokeTarget } from './invoke.js';
