import type { EnvironmentConfig } from '@framework/core';

export const prod: EnvironmentConfig = { preset: 'medium', overrides: { logs: { level: 'info' } } };
