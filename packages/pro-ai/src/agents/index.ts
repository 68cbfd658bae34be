export * from './define-agent.js';
export * from './define-tool.js';
export { recentAgentTraces, type AgentStep, type AgentStopReason, type AgentTrace, type TraceToolCall } from './agent-trace.js';
export * from './memory/index.js';
