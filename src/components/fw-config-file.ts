import { Project } from 'projen';
import { Literal, ManagedTsFile, renderLiteral, toLiteral, toLiteralObject } from '../files';
import type { BillingOptions, PlanFeature } from '../intents';
import { AppIntents } from './app-intents';
import { stageVariable } from './stage-config-file';

/** `fw.config.ts`: the app (`defineApp`) with its stages and the infrastructure intents, in core's shape. */
export class FwConfigFile extends ManagedTsFile {
  constructor(project: Project, intents: AppIntents) {
    super(project, 'fw.config.ts', () => renderFwConfig(intents));
  }
}

function renderFwConfig(intents: AppIntents): string {
  const stageImports = intents.stages.map((s) => `import ${stageVariable(s.name)} from './config/${s.name}.js';`);
  const envs = intents.stages.map((s) => (stageVariable(s.name) === s.name ? s.name : `'${s.name}': ${stageVariable(s.name)}`));
  const infrastructure: Record<string, Literal> = {
    auth: intents.auth ? toLiteral(intents.auth) : undefined,
    databases: nonEmpty(intents.databases.map((d) => toLiteral(d))),
    storage: nonEmpty(intents.storage.map((s) => toLiteral(s))),
    queues: nonEmpty(intents.queues.map((q) => toLiteral(q))),
    schedules: nonEmpty(
      intents.schedules.map(({ cron, rate, ...rest }) => ({ id: rest.id, schedule: cron !== undefined ? { cron } : { rate }, ...toLiteralObject({ ...rest, id: undefined }) })),
    ),
    functions: nonEmpty(
      intents.functions.map(({ environment, ...rest }) => ({
        ...toLiteralObject(rest),
        environment: environment?.length ? Object.fromEntries(environment.map((v) => [v.name, v.value])) : undefined,
      })),
    ),
    caches: nonEmpty(intents.caches.map((c) => toLiteral(c))),
    ws: intents.ws ? toLiteral(intents.ws) : undefined,
    notify: intents.notify ? toLiteral(intents.notify) : undefined,
  };
  return [
    `import { defineApp } from '@framework/core';`,
    `import base from './config/base.js';`,
    `import security from './config/security.js';`,
    ...stageImports,
    '',
    '/** The app: its identity, security, stages and infrastructure intents (from .projenrc.ts). */',
    `export default defineApp({`,
    `  base,`,
    `  security,`,
    `  envs: { ${envs.join(', ')} },`,
    `  routesDir: 'src/routes',`,
    `  functionsDir: 'src/functions',`,
    `  infrastructure: ${renderLiteral(infrastructure, '  ')},`,
    ...(intents.billing ? [`  billing: ${renderLiteral(billingLiteral(intents.billing), '  ')},`] : []),
    `});`,
    '',
  ].join('\n');
}

function nonEmpty<T>(list: T[]): T[] | undefined {
  return list.length ? list : undefined;
}

/** The struct form (lists with the key inside, `upTo` absent on the last tier) in core's shape (maps, `'inf'`). */
function billingLiteral(billing: BillingOptions): Literal {
  const feature = (f: PlanFeature): Literal => (f.included !== undefined ? toLiteralObject({ included: f.included, overage: f.overage }) : f.limit !== undefined ? f.limit : f.enabled ?? false);
  const amount = (value: string): Literal => (/^\d+$/.test(value) ? Number(value) : value);
  return {
    plans: Object.fromEntries(
      billing.plans.map(({ id, prices, features, ...plan }) => [
        id,
        {
          ...toLiteralObject(plan),
          prices: prices?.length
            ? prices.map(({ tiers, ...price }) => ({
                ...toLiteralObject(price),
                tiers: tiers?.map((t) => toLiteralObject({ upTo: t.upTo ?? 'inf', unitAmount: amount(t.unitAmount), flatAmount: t.flatAmount })),
              }))
            : undefined,
          features: features?.length ? Object.fromEntries(features.map((f) => [f.name, feature(f)])) : undefined,
        },
      ]),
    ),
    defaultPlan: billing.defaultPlan,
    graceSeconds: billing.graceSeconds,
  };
}
