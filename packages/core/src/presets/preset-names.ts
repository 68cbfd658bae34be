/** The five presets, smallest first (each kind's stage settings give a value for every one). */
export const PRESET_NAMES = ['free', 'nano', 'micro', 'medium', 'large'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];
