import { standaloneFunctionName } from '../naming/unit-names.js';
import type { FunctionUnit } from './function-unit.js';
import type { IntentKindModule } from './intent-kind.js';

export interface StandaloneFunctionDefinition extends FunctionUnit {
  readonly kind: 'function';
  readonly description?: string;
}

/** `src/functions/<id>.ts` (with an optional `infrastructure.functions` intent): functions reachable with `invoke`. */
export const functionsKind: IntentKindModule<readonly StandaloneFunctionDefinition[]> = {
  outputs: [],
  build: ({ project, stage, config, infrastructure, files }) => {
    const defaults = config.settings.functions;
    return files.functions.map((f) => {
      const intent = infrastructure.functions?.find((i) => i.id === f.id);
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
