import * as fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as path from 'node:path';
import type * as CdkNag from 'cdk-nag';

const require = createRequire(import.meta.url);

type Load = (request: string, parent: NodeJS.Module | undefined, isMain: boolean) => unknown;
const loader = Module as unknown as { _load: Load; _cache: Record<string, NodeJS.Module | undefined> };

/** A service module of aws-cdk-lib as cdk-nag's rules require it: `aws-cdk-lib/aws-quicksight`. */
const SERVICE_REQUEST = /^aws-cdk-lib\/aws-[a-z0-9-]+$/;

/**
 * cdk-nag, loaded when the checks run (a synth without them skips its module loading), with the aws-cdk-lib services
 * its rules name loaded only once the app uses them.
 *
 * Every rule of the AwsSolutions pack asks `node instanceof aws_<service>.Cfn<Resource>` of every resource, so one
 * synth used to load the CloudFormation classes of every service a rule names (QuickSight, SageMaker, Glue, EMR,
 * ECS...): 14 MB of JavaScript, 373 files, for an app using a dozen services (in the example's `fw synth`). An object
 * can be an instance of such a class only once the service's code has run, so while none of a service's files is
 * loaded its classes answer `instanceof` with false without loading it; as soon as one is (the app, or anything
 * else, uses the service), they are the real classes. Anything else a rule reads (an enum, a static method) loads
 * the service as before. The findings are the same: `test/synth/cdk-nag-loading.test.ts`.
 *
 * Loaded with `require`: an ESM import of a CommonJS package makes Node scan every file it re-exports to list the names
 * (cdk-nag re-exports each rule).
 */
export function loadCdkNag(): typeof CdkNag {
  const nagDir = path.dirname(require.resolve('cdk-nag/package.json')) + path.sep;
  const original = loader._load;
  loader._load = function loadForNag(this: unknown, request, parent, isMain) {
    if (SERVICE_REQUEST.test(request) && parent?.filename?.startsWith(nagDir)) {
      let loaded: Record<string | symbol, unknown> | undefined;
      return serviceView(request, parent, () => (loaded ??= original.call(this, request, parent, isMain) as Record<string | symbol, unknown>));
    }
    return original.call(this, request, parent, isMain);
  };
  try {
    return require('cdk-nag') as typeof CdkNag;
  } finally {
    loader._load = original;
  }
}

/** One view per service, whichever rule file requires it (they all resolve it from cdk-nag's folder). */
const views = new Map<string, object>();

/** What a rule file gets for `require('aws-cdk-lib/aws-<service>')`: see `loadCdkNag`. */
function serviceView(request: string, parent: NodeJS.Module, load: () => Record<string | symbol, unknown>): object {
  const existing = views.get(request);
  if (existing) return existing;
  const file = (Module as unknown as { _resolveFilename(request: string, parent: NodeJS.Module): string })._resolveFilename(request, parent);
  const used = serviceInUse(path.join(path.dirname(file), 'lib'));
  const placeholders = new Map<string, unknown>();
  const view = new Proxy({}, {
    get(_target, name) {
      if (used() || typeof name !== 'string' || !name.startsWith('Cfn')) return load()[name];
      let placeholder = placeholders.get(name);
      if (!placeholder) {
        placeholder = new Proxy(function notLoaded() {}, {
          get(_fn, property) {
            // `value instanceof X` asks X for Symbol.hasInstance: no instance exists while the service is not loaded.
            if (property === Symbol.hasInstance) return (value: unknown) => used() && value instanceof (load()[name] as new () => unknown);
            return Reflect.get(load()[name] as object, property);
          },
        });
        placeholders.set(name, placeholder);
      }
      return placeholder;
    },
  });
  views.set(request, view);
  return view;
}

/** True once any file of a service's `lib` folder has been loaded (and from then on). */
function serviceInUse(libDir: string): () => boolean {
  let files: string[] | undefined;
  let inUse = false;
  return () => {
    if (inUse) return true;
    files ??= listScripts(libDir);
    inUse = files.some((file) => loader._cache[file] !== undefined);
    return inUse;
  };
}

function listScripts(dir: string): string[] {
  try {
    return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
      .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
      .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
  } catch {
    return [];
  }
}
