import type { EnvironmentConfig } from '@framework/core';

export const dev: EnvironmentConfig = { preset: 'free' };
