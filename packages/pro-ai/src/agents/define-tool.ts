import { invoke, type StandardSchemaV1, type TenantInfo } from '@framework/runtime';
import { AiError } from '../errors.js';
import type { JsonSchemaObject } from '../models/model-schema.js';

/** What a tool's `execute` gets besides its arguments. */
export interface ToolContext {
  /** The user the agent runs for, when given. */
  readonly user?: string;
  /** The tenant the agent runs for (`currentTenant()`), when there is one. */
  readonly tenant?: TenantInfo;
  /** Aborted when the agent's time budget ends: pass it on to long work (fetch, database calls). */
  readonly abortSignal: AbortSignal;
  /** The step (0-based) that called the tool. */
  readonly step: number;
}

/**
 * A tool an agent may call: a typed function with Standard Schema parameters. The model sees `description` and the
 * parameters' JSON Schema; the arguments it sends are validated with the schema before `execute` runs. A tool that
 * throws does not crash the agent: the error's message goes back to the model as the tool's result.
 */
export interface AgentTool<TArgs = unknown, TResult = unknown> {
  readonly description: string;
  readonly parameters: StandardSchemaV1<unknown, TArgs>;
  /** The JSON Schema of the parameters, for a library without the Standard JSON Schema interface (valibot). */
  readonly jsonSchema?: JsonSchemaObject;
  execute(args: TArgs, context: ToolContext): TResult | Promise<TResult>;
}

/** Declares a tool (the identity, typed: `args` is what the schema outputs). */
export function defineTool<TArgs, TResult>(tool: AgentTool<TArgs, TResult>): AgentTool<TArgs, TResult> {
  if (typeof tool.description !== 'string' || tool.description.trim() === '') {
    throw new AiError('FW_ERR_AI_INVALID_OPTIONS', 'defineTool: a tool needs a description (the model decides from it when to call the tool).');
  }
  if (typeof tool.execute !== 'function') throw new AiError('FW_ERR_AI_INVALID_OPTIONS', 'defineTool: a tool needs an execute function.');
  return tool;
}

/** Options of `functionTool`: one of the app's standalone functions as a tool. */
export interface FunctionToolOptions<TArgs> {
  /** The function's id: its path below `src/functions/` without extension (`tasks/overdue`). */
  readonly function: string;
  readonly description: string;
  readonly parameters: StandardSchemaV1<unknown, TArgs>;
  readonly jsonSchema?: JsonSchemaObject;
}

/**
 * One of the app's standalone functions as a tool, called with the runtime's `invoke` (Lambda deployed, the dev
 * server under `fw dev`): the validated arguments are its payload, its result is the tool's result.
 */
export function functionTool<TArgs>(options: FunctionToolOptions<TArgs>): AgentTool<TArgs, unknown> {
  if (typeof options.function !== 'string' || options.function === '') throw new AiError('FW_ERR_AI_INVALID_OPTIONS', 'functionTool: name the function to call (function: "tasks/overdue").');
  return defineTool({
    description: options.description,
    parameters: options.parameters,
    ...(options.jsonSchema ? { jsonSchema: options.jsonSchema } : {}),
    execute: (args) => invoke<unknown>({ function: options.function }, { payload: args as never }),
  });
}
