import * as c from './codec.js';
import { PRESET_NAMES, type PresetName } from '../presets/presets.js';
import { settingsOverridesCodec, type SettingsOverrides } from '../presets/settings.js';

/** One stage's environment (`config/dev.ts`, `config/prod.ts`): a preset plus any overrides. */
export interface EnvironmentConfig {
  readonly preset: PresetName;
  /** Any preset field, replaced for this stage. @default {} */
  readonly overrides?: SettingsOverrides;
}

export const environmentConfigCodec = c.struct<EnvironmentConfig>('an environment config { preset, overrides }', {
  preset: c.required(c.oneOf(PRESET_NAMES)),
  overrides: c.optional(settingsOverridesCodec),
});
