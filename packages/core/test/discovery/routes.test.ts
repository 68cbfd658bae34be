import { expect } from 'chai';
import fc from 'fast-check';
import { defineApp, discoverRoutes, envToken, isHandlerFile, listHandlerFiles, segmentToPath } from '../../src/index.js';
import { expectedPath, functionId, intentId, projectName, routeShape, routeSpec, stageName } from '../helpers/arbitraries.js';
import { TempProject, validOptions } from '../helpers/temp-project.js';

describe('route discovery', () => {
  let project: TempProject | undefined;
  afterEach(() => project?.remove());

  it('maps folders and method files to gateway routes', () => {
    // Given a tree with a root route, a parameter and a catch-all
    project = new TempProject(['src/routes/get.ts', 'src/routes/tasks/[id]/put.ts', 'src/routes/files/[...path]/get.ts', 'src/routes/files/[id]/delete.mts']);
    // When the routes are discovered
    const { routes, problems } = discoverRoutes(project.rootDir, 'src/routes');
    // Then each file is one route
    expect(problems).to.deep.equal([]);
    expect(routes.map((r) => [r.routeKey, r.file, r.pathParams])).to.deep.equal([
      ['GET /files/{path+}', 'src/routes/files/[...path]/get.ts', ['path']],
      ['DELETE /files/{id}', 'src/routes/files/[id]/delete.mts', ['id']],
      ['GET /', 'src/routes/get.ts', []],
      ['PUT /tasks/{id}', 'src/routes/tasks/[id]/put.ts', ['id']],
    ]);
  });

  it('skips helpers, tests and declarations: "_" and "." prefixes, *.test.*, *.spec.*, .d.ts', () => {
    project = new TempProject([
      'src/routes/tasks/get.ts',
      'src/routes/tasks/_schema.ts',
      'src/routes/_lib/anything.ts',
      'src/routes/.hidden/get.ts',
      'src/routes/tasks/get.test.ts',
      'src/routes/tasks/post.spec.mts',
      'src/routes/tasks/types.d.ts',
      'src/routes/tasks/README.md',
    ]);
    expect(listHandlerFiles(`${project.rootDir}/src/routes`)).to.deep.equal(['tasks/get.ts']);
    expect(isHandlerFile('get.js')).to.equal(true);
    expect(isHandlerFile('get.d.ts')).to.equal(false);
  });

  it('takes routesDir and functionsDir in any spelling of a relative folder', () => {
    project = new TempProject(['api/tasks/get.ts', 'jobs/nightly.ts']);
    const app = defineApp(validOptions(project.rootDir, { routesDir: './api/', functionsDir: 'jobs//' }));
    expect(app.routes.map((r) => r.file)).to.deep.equal(['api/tasks/get.ts']);
    expect(app.functions.map((f) => [f.file, f.functionName])).to.deep.equal([['jobs/nightly.ts', 'acme-dev-fn-nightly']]);
    expect(app.directories).to.include({ routes: 'api', functions: 'jobs' });
  });

  it('reads a missing routes folder as no routes', () => {
    project = new TempProject();
    expect(discoverRoutes(project.rootDir, 'src/routes')).to.deep.equal({ routes: [], problems: [] });
  });

  it('keeps /files/{id} and /files/{rest+} apart: the gateway routes both', () => {
    project = new TempProject(['src/routes/files/[id]/get.ts', 'src/routes/files/[...rest]/get.ts']);
    const { routes, problems } = discoverRoutes(project.rootDir, 'src/routes');
    expect(problems).to.deep.equal([]);
    expect(routes.map((r) => r.routeKey)).to.have.members(['GET /files/{id}', 'GET /files/{rest+}']);
  });

  it('gives routes that share a readable function name a hash of their route key each', () => {
    // Given /tasks/{id} and /tasks/id, which both read "route-get-tasks-id", beside an unrelated route
    project = new TempProject(['src/routes/tasks/[id]/get.ts', 'src/routes/tasks/id/get.ts', 'src/routes/tasks/get.ts']);
    // When the app is defined
    const app = defineApp(validOptions(project.rootDir));
    // Then the two get distinct hashed names and the third keeps its readable one
    const name = (key: string) => app.routes.find((r) => r.routeKey === key)?.functionName;
    expect(name('GET /tasks/{id}')).to.match(/^acme-dev-route-get-tasks-id-[0-9a-f]{8}$/);
    expect(name('GET /tasks/id')).to.match(/^acme-dev-route-get-tasks-id-[0-9a-f]{8}$/);
    expect(name('GET /tasks/{id}')).not.to.equal(name('GET /tasks/id'));
    expect(name('GET /tasks')).to.equal('acme-dev-route-get-tasks');
  });

  it('turns one folder into a path segment, or says why not', () => {
    expect(segmentToPath('[id]', false)).to.deep.equal({ segment: '{id}', param: 'id' });
    expect(segmentToPath('[...rest]', true)).to.deep.equal({ segment: '{rest+}', param: 'rest' });
    expect(segmentToPath('[...rest]', false)).to.have.property('error').that.matches(/must be the last folder/);
    expect(segmentToPath('[1id]', false)).to.have.property('error');
    expect(segmentToPath('v1.0', false)).to.deep.equal({ segment: 'v1.0' });
  });

  describe('properties, on random route trees in a temp dir', function () {
    // Each run writes a tree to disk; the machine running the suite may be busy, so time is generous.
    this.timeout(60_000);

    it('maps every file to its path and method, one route per file, unless two share a shape', () => {
      fc.assert(
        fc.property(fc.uniqueArray(routeSpec, { minLength: 1, maxLength: 12, selector: (r) => `${r.folders.join('/')}/${r.method}` }), (specs) => {
          // Given files for random routes (some sharing a method and a shape)
          const tree = new TempProject(specs.map((s) => ['src/routes', ...s.folders, `${s.method}.ts`].join('/')));
          try {
            // When they are discovered
            const { routes, problems } = discoverRoutes(tree.rootDir, 'src/routes');
            // Then each unique shape is one route with the mapped path, and each repeat is a conflict naming its file
            const shapes = new Set(specs.map(routeShape));
            expect(routes).to.have.length(shapes.size);
            expect(problems.every((p) => p.code === 'FW_ERR_ROUTE_CONFLICT')).to.equal(true);
            expect(problems).to.have.length(specs.length - shapes.size);
            for (const route of routes) {
              const spec = specs.find((s) => ['src/routes', ...s.folders, `${s.method}.ts`].join('/') === route.file)!;
              expect(route.path).to.equal(expectedPath(spec.folders));
              expect(route.method).to.equal(spec.method.toUpperCase());
              expect(route.routeKey).to.equal(`${route.method} ${route.path}`);
            }
            // Deterministic: a second walk gives the same answer
            expect(discoverRoutes(tree.rootDir, 'src/routes')).to.deep.equal({ routes, problems });
          } finally {
            tree.remove();
          }
        }),
        { numRuns: 40 },
      );
    });

    it('gives every unit of a generated app a unique name within the cloud limits, for any project and stage', () => {
      fc.assert(
        fc.property(
          projectName,
          stageName,
          fc.uniqueArray(routeSpec, { maxLength: 10, selector: routeShape }),
          fc.uniqueArray(functionId, { maxLength: 6, selector: (id) => id.split('/').join('-') }),
          // Queue ids defineApp accepts: no two share a variable token, none is another's dead-letter queue name
          fc.uniqueArray(intentId, { maxLength: 5, comparator: (a, b) => envToken(a) === envToken(b) || a === `${b}-dlq` || b === `${a}-dlq` }),
          fc.uniqueArray(intentId, { maxLength: 5 }),
          (project, stage, routes, fnIds, queueIds, cronIds) => {
            // Given a project with those files and an intent for every queue and cron
            const files = [
              ...routes.map((s) => ['src/routes', ...s.folders, `${s.method}.ts`].join('/')),
              ...fnIds.map((id) => `src/functions/${id}.ts`),
              ...queueIds.map((id) => `src/queues/${id}.ts`),
              ...cronIds.map((id) => `src/crons/${id}.ts`),
            ];
            const tree = new TempProject(files);
            try {
              const app = defineApp(
                validOptions(tree.rootDir, {
                  base: { name: project, region: 'us-east-1' },
                  envs: { [stage]: { preset: 'nano' } },
                  stage,
                  infrastructure: { queues: queueIds.map((id) => ({ id })), schedules: cronIds.map((id) => ({ id, schedule: { rate: '5 minutes' } })) },
                }),
              );
              // Then every Lambda name is unique and at most 64 characters
              const lambdas = app.units.map((u) => u.functionName);
              expect(lambdas).to.have.length(routes.length + fnIds.length + queueIds.length + cronIds.length);
              expect(new Set(lambdas).size).to.equal(lambdas.length);
              for (const name of lambdas) expect(name).to.match(/^[A-Za-z0-9_-]{1,64}$/);
              // And queues (with their dead-letter queues) at most 80, rules at most 64, all unique
              const queues = app.queues.flatMap((q) => [q.queueName, q.deadLetterQueueName!]);
              expect(new Set(queues).size).to.equal(queues.length);
              for (const name of queues) expect(name.length).to.be.at.most(80);
              const rules = app.crons.map((c) => c.ruleName);
              expect(new Set(rules).size).to.equal(rules.length);
              for (const name of rules) expect(name.length).to.be.at.most(64);
              // And the model is deterministic
              expect(app.forStage(stage).units.map((u) => u.functionName)).to.deep.equal(lambdas);
            } finally {
              tree.remove();
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  });
});
