import { Project } from 'projen';
import { Literal, ManagedTsFile, renderLiteral, toLiteralObject } from '../files';
import type { BillingOptions, PlanFeature } from '../intents';
import { AppIntents } from './app-intents';
import { INTENT_KIND_NAMES, intentKind, renderIntent } from './intent-kinds';
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
  // Each kind under its name, in INTENT_KINDS' order; a list kind with no intents and an absent single one are left out.
  const infrastructure: Record<string, Literal> = Object.fromEntries(
    INTENT_KIND_NAMES.map((kind) => {
      const rendered = intents.of(kind).map((intent) => renderIntent(kind, intent));
      return [kind, intentKind(kind).many ? nonEmpty(rendered) : rendered[0]];
    }),
  );
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
