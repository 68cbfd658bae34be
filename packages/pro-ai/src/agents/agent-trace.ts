import type { TokenUsage } from '../models/create-model.js';

/** One tool call of a step, with what came of it. */
export interface TraceToolCall {
  readonly tool: string;
  readonly args: unknown;
  /** The tool's result, when it returned. */
  readonly result?: unknown;
  /** The error's message, when it threw (the model was told the same). */
  readonly error?: string;
}

/** One step of an agent's loop: one model call and the tools it asked for. */
export interface AgentStep {
  readonly index: number;
  /** The model's text in this step (often empty when it calls tools). */
  readonly text: string;
  readonly toolCalls: readonly TraceToolCall[];
  readonly finishReason: string;
  readonly usage: TokenUsage;
  /** Milliseconds from the previous step's end (or the run's start) to this step's end: the model call and tools. */
  readonly durationMs: number;
}

/** Why the loop ended. */
export type AgentStopReason = 'done' | 'step-limit' | 'time-budget';

/** A whole run: every step, why it stopped, the tokens. */
export interface AgentTrace {
  readonly agent: string;
  readonly runId: string;
  readonly startedAt: string;
  readonly steps: readonly AgentStep[];
  readonly stoppedBy: AgentStopReason;
  readonly usage: TokenUsage;
  readonly durationMs: number;
  readonly tenantId?: string;
  readonly userId?: string;
}

const KEPT_TRACES = 50;
const recent: AgentTrace[] = [];

/** Keeps a run's trace among the last few of this process (what a dev console shows). */
export function keepTrace(trace: AgentTrace): void {
  recent.push(trace);
  if (recent.length > KEPT_TRACES) recent.splice(0, recent.length - KEPT_TRACES);
}

/** The traces of the last runs in this process, newest last (at most 50). */
export function recentAgentTraces(): readonly AgentTrace[] {
  return [...recent];
}
