import type { Codec } from '../config/codec.js';
import { standaloneFunctionName } from '../naming/unit-names.js';
import type { FunctionUnit } from './function-unit.js';
import type { CodecKit, IntentKindModule } from './intent-kind.js';

/** A standalone function (`src/functions/<id>.ts`), reachable with `invoke`. Files without an intent get defaults. */
export interface FunctionIntent {
  /** Path below the functions directory without extension, e.g. `reports/daily`. */
  readonly id: string;
  /** MB. @default - the stage's `functions.memorySize` */
  readonly memorySize?: number;
  /** Seconds. @default - the stage's `functions.timeout` */
  readonly timeout?: number;
  readonly description?: string;
  /** Extra environment variables for this function only. @default {} */
  readonly environment?: Readonly<Record<string, string>>;
}

/** The codec of `infrastructure.functions` (built from the kit: this module stays free of io-ts at run time). */
export function functionsCodec({ c, functionId, memorySize, timeout }: CodecKit): Codec<readonly FunctionIntent[]> {
  /**
   * A variable a function intent may add. Names the framework sets (`FW_*`, `LOG_LEVEL`) or Lambda reserves (`AWS_*`,
   * `LAMBDA_*`, `_HANDLER`, `_X_AMZN_TRACE_ID`, `TZ`) are refused: overriding one would break the function or the deploy.
   */
  const envName = c.pattern(
    'an environment variable name of letters, digits and "_" that the framework and Lambda do not reserve (not FW_*, AWS_*, LAMBDA_*, LOG_LEVEL, _HANDLER, _X_AMZN_TRACE_ID or TZ)',
    /^(?!(FW_|AWS_|LAMBDA_))(?!(LOG_LEVEL|_HANDLER|_X_AMZN_TRACE_ID|TZ)$)[A-Za-z_][A-Za-z0-9_]*$/,
  );
  return c.array(
    c.struct<FunctionIntent>('a function intent { id }', {
      id: c.required(functionId),
      memorySize: c.optional(memorySize),
      timeout: c.optional(timeout),
      description: c.optional(c.text(256)),
      environment: c.optional(c.record(envName, c.text(4096))),
    }),
  );
}

export interface StandaloneFunctionDefinition extends FunctionUnit {
  readonly kind: 'function';
  readonly description?: string;
}

/** `src/functions/<id>.ts` (with an optional `infrastructure.functions` intent): functions reachable with `invoke`. */
export const functionsKind: IntentKindModule<readonly FunctionIntent[], readonly StandaloneFunctionDefinition[], never, 'functions'> = {
  configKey: 'functions',
  ids: 'path',
  codec: functionsCodec,
  outputs: [],
  build: (intents, { project, stage, config, files }) => {
    const defaults = config.settings.functions;
    return (files.functions ?? []).map((f) => {
      const intent = intents?.find((i) => i.id === f.id);
      return {
        kind: 'function',
        id: f.id,
        file: f.file,
        functionName: standaloneFunctionName(project, stage, f.id),
        memorySize: intent?.memorySize ?? defaults.memorySize,
        timeout: intent?.timeout ?? defaults.timeout,
        environment: intent?.environment ?? {},
        description: intent?.description,
      };
    });
  },
  environment: () => ({}),
  units: (functions) => functions,
};
