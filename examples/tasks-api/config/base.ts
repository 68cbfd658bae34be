import type { BaseConfig } from '@framework/core';

export const base: BaseConfig = { name: 'tasks-api', region: 'eu-west-1' };
