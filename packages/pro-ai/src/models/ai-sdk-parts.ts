/**
 * The parts of the `ai` SDK this package calls, as named exports: `loadAiSdk` imports this module, not `ai` itself,
 * so a bundler keeps these (and what they use) and drops the rest of the SDK. Importing `ai` as a namespace through
 * `import()` keeps every export (about 250 KB of the SDK in a function that answers questions, against 170 KB).
 * A call of another part of the SDK adds its name here.
 */
export { asSchema, embedMany, generateText, jsonSchema, NoObjectGeneratedError, Output, stepCountIs, streamText, tool } from 'ai';
