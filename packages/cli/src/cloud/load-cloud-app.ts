import type { AppDefinition } from '@framework/core';
import { loadApp } from '../app-loader/index.js';
import { CloudCommandError } from '../errors.js';

/** Loads the project's app model for the stage (`fw.config.ts` in `rootDir`). */
export async function loadCloudApp(rootDir: string, stage: string): Promise<AppDefinition> {
  try {
    return await loadApp(rootDir, stage);
  } catch (error) {
    if ((error as { code?: string }).code === 'FW_ERR_DEV_NO_CONFIG') {
      throw new CloudCommandError('FW_ERR_CLOUD_NO_CONFIG', `no fw.config.ts in ${rootDir}: run the command in the project folder (where fw.config.ts is)`, { cause: error });
    }
    throw error;
  }
}
