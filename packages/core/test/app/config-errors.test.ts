import { expect } from 'chai';
import { CONFIG_PROBLEM_CODES, ConfigError, defineApp, type ConfigProblem, type ConfigProblemCode } from '../../src/index.js';
import { TempProject, thrownBy, validOptions } from '../helpers/temp-project.js';

/** The problems of the ConfigError that `fn` throws (fails on any other outcome). */
function problemsOf(fn: () => unknown): readonly ConfigProblem[] {
  const error = thrownBy(fn);
  expect(error).to.be.instanceOf(ConfigError);
  return (error as ConfigError).problems;
}

function only(problems: readonly ConfigProblem[], code: ConfigProblemCode): ConfigProblem {
  expect(problems.map((p) => `${p.code} ${p.path}: ${p.message}`), 'problems').to.have.length(1);
  expect(problems[0]!.code).to.equal(code);
  return problems[0]!;
}

describe('ConfigError cases of defineApp', () => {
  // Given a project with one file of each kind, so intents can be matched
  let project: TempProject;
  const covered = new Set<ConfigProblemCode>();
  beforeEach(() => {
    project = new TempProject(['src/routes/tasks/get.ts', 'src/queues/emails.ts', 'src/crons/cleanup.ts', 'src/functions/reports/daily.ts']);
  });
  afterEach(() => project.remove());
  const infra = (extra: Record<string, unknown> = {}) => ({
    queues: [{ id: 'emails' }],
    schedules: [{ id: 'cleanup', schedule: { rate: '1 hour' } }],
    ...extra,
  });
  const expectProblem = (fn: () => unknown, code: ConfigProblemCode, path: string, message: RegExp | string) => {
    const problem = only(problemsOf(fn), code);
    expect(problem.path).to.equal(path);
    if (typeof message === 'string') expect(problem.message).to.equal(message);
    else expect(problem.message).to.match(message);
    covered.add(code);
    return problem;
  };

  it('accepts the valid baseline (so every case below fails for its own reason)', () => {
    const app = defineApp(validOptions(project.rootDir, { infrastructure: infra() }));
    expect(app.queues.map((q) => q.queueName)).to.deep.equal(['acme-dev-emails']);
  });

  describe('FW_ERR_CONFIG_INVALID_VALUE', () => {
    it('names the path, what is expected and the value found, in the documented shape', () => {
      // Given an override that is not a number
      const options = validOptions(project.rootDir, { envs: { dev: { preset: 'free' }, prod: { preset: 'medium', overrides: { functions: { memorySize: 'big' } } } }, infrastructure: infra() });
      // When the app is defined, Then the one problem reads exactly like the documented example
      const error = thrownBy(() => defineApp(options)) as ConfigError;
      expectProblem(() => defineApp(options), 'FW_ERR_CONFIG_INVALID_VALUE', 'envs.prod.overrides.functions.memorySize', 'expected an integer from 128 to 10240, got "big"');
      expect(error.message).to.include('envs.prod.overrides.functions.memorySize: expected an integer from 128 to 10240, got "big"');
      expect(error.code).to.equal('FW_ERR_CONFIG');
      expect(error.name).to.equal('ConfigError');
    });

    it('reports an out-of-range intent field with its index', () => {
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ queues: [{ id: 'emails', batchSize: 50 }] }) })), 'FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.queues[0].batchSize', 'expected an integer from 1 to 10, got 50');
    });

    it('reports an unknown preset', () => {
      expectProblem(() => defineApp(validOptions(project.rootDir, { envs: { dev: { preset: 'huge' } }, infrastructure: infra() })), 'FW_ERR_CONFIG_INVALID_VALUE', 'envs.dev.preset', /^expected one of "free", "nano", "micro", "medium", "large", got "huge"$/);
    });

    it('reports a bad schedule (both cron and rate, and a five-field cron)', () => {
      expectProblem(
        () => defineApp(validOptions(project.rootDir, { infrastructure: infra({ schedules: [{ id: 'cleanup', schedule: { cron: '0 3 * * ?', rate: '1 hour' } }] }) })),
        'FW_ERR_CONFIG_INVALID_VALUE',
        'infrastructure.schedules[0].schedule',
        'expected exactly one of "cron" or "rate", got both',
      );
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ schedules: [{ id: 'cleanup', schedule: { cron: '0 3 * * ?' } }] }) })), 'FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.schedules[0].schedule', /^cron expected six fields .* got 5 in "0 3 \* \* \?"$/);
    });

    it('reports a project name that cannot prefix deployed names', () => {
      expectProblem(() => defineApp(validOptions(project.rootDir, { base: { name: 'Acme App', region: 'eu-west-1' }, infrastructure: infra() })), 'FW_ERR_CONFIG_INVALID_VALUE', 'base.name', /^expected a project name of 2 to 32 lowercase letters.*got "Acme App"$/);
    });

    it('reports a bucket notification naming a queue that does not exist', () => {
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ storage: [{ id: 'uploads', notifications: [{ queue: 'nope' }] }] }) })), 'FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.storage[0].notifications[0].queue', 'no queue intent has id "nope"');
    });

    it('reports an infrastructure.notify naming units the app does not declare, or no sender identity', () => {
      const notify = (fields: Record<string, unknown>) => defineApp(validOptions(project.rootDir, { infrastructure: infra({ notify: { queue: 'emails', emailDomain: 'mail.example.com', ...fields } }) }));
      expect(notify({ sweeper: 'cleanup', eventsFunction: 'reports/daily' }).notify).to.deep.include({ queue: 'emails', sweeper: 'cleanup', eventsFunction: 'reports/daily', email: { domain: 'mail.example.com' } });
      expectProblem(() => notify({ queue: 'outbox' }), 'FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.notify.queue', /^no queue intent has id "outbox": name the queue whose consumer is the dispatcher/);
      expectProblem(() => notify({ sweeper: 'sweep' }), 'FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.notify.sweeper', /^no schedule intent has id "sweep"/);
      expectProblem(() => notify({ eventsFunction: 'ses-events' }), 'FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.notify.eventsFunction', /^no function file src\/functions\/ses-events\.ts/);
      expectProblem(() => notify({ emailAddress: 'no-reply@example.com' }), 'FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.notify', /^expected exactly one of "emailDomain" .* or "emailAddress"/);
      expectProblem(() => notify({ emailDomain: 'not a domain' }), 'FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.notify.emailDomain', /^expected a domain name such as mail\.example\.com, got "not a domain"$/);
      expectProblem(() => notify({ smsOriginationArns: ['arn:aws:sns:us-east-1:123456789012:pool/x'] }), 'FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.notify.smsOriginationArns[0]', /^expected an ARN of sms-voice/);
      expectProblem(() => notify({ fromAddress: 'x' }), 'FW_ERR_CONFIG_UNKNOWN_FIELD', 'infrastructure.notify.fromAddress', /is not a field of/);
    });

    it('reports a visibility timeout shorter than the consumer timeout of some stage', () => {
      // Given a queue hiding messages for 20 s: enough for dev (free: 10 s), not for prod (medium: 30 s)
      const options = validOptions(project.rootDir, { infrastructure: infra({ queues: [{ id: 'emails', visibilityTimeout: 20 }] }) });
      expectProblem(() => defineApp(options), 'FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.queues[0].visibilityTimeout', "expected at least the consumer timeout (30 s in stage prod), got 20; raise it or lower the queue's timeout");
      // And with the queue's own timeout under 20 s, every stage is fine
      expect(defineApp(validOptions(project.rootDir, { infrastructure: infra({ queues: [{ id: 'emails', visibilityTimeout: 20, timeout: 15 }] }) })).queues[0]).to.include({ visibilityTimeout: 20, timeout: 15 });
    });

    it('reports a function variable the framework or Lambda reserves', () => {
      for (const name of ['FW_STAGE', 'AWS_REGION', 'LOG_LEVEL', '_HANDLER']) {
        expectProblem(
          () => defineApp(validOptions(project.rootDir, { infrastructure: infra({ functions: [{ id: 'reports/daily', environment: { [name]: 'x' } }] }) })),
          'FW_ERR_CONFIG_INVALID_VALUE',
          `infrastructure.functions[0].environment.${name}`,
          /^key ".*" is not valid: expected an environment variable name .* not reserve/,
        );
      }
      expect(defineApp(validOptions(project.rootDir, { infrastructure: infra({ functions: [{ id: 'reports/daily', environment: { REPORT_BUCKET: 'x' } }] }) })).functions[0]?.environment).to.deep.equal({ REPORT_BUCKET: 'x' });
    });

    it('reports a rootDir that is not a path and a routesDir that is a file', () => {
      expectProblem(() => defineApp(validOptions(project.rootDir, { rootDir: 42, infrastructure: infra() })), 'FW_ERR_CONFIG_INVALID_VALUE', 'rootDir', 'expected the project folder as a path string, got 42');
      expectProblem(() => defineApp(validOptions(`${project.rootDir}/missing`, { infrastructure: infra() })), 'FW_ERR_CONFIG_INVALID_VALUE', 'rootDir', /^expected the project folder, but .*missing cannot be read \(ENOENT\)$/);
      project.add('src/not-a-folder.ts');
      expectProblem(() => defineApp(validOptions(project.rootDir, { routesDir: 'src/not-a-folder.ts', infrastructure: infra() })), 'FW_ERR_CONFIG_INVALID_VALUE', 'routesDir', /is a file/);
    });
  });

  it('FW_ERR_CONFIG_MISSING_FIELD: a required field or option is absent', () => {
    expectProblem(() => defineApp(validOptions(project.rootDir, { base: { name: 'acme' }, infrastructure: infra() })), 'FW_ERR_CONFIG_MISSING_FIELD', 'base.region', 'is required: expected a region such as "eu-west-1"');
    expectProblem(() => defineApp(validOptions(project.rootDir, { envs: undefined, infrastructure: infra() })), 'FW_ERR_CONFIG_MISSING_FIELD', 'envs', /^is required/);
    expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ schedules: [{ id: 'cleanup' }] }) })), 'FW_ERR_CONFIG_MISSING_FIELD', 'infrastructure.schedules[0].schedule', /^is required: expected exactly one of/);
  });

  it('FW_ERR_CONFIG_UNKNOWN_FIELD: a typo gets a suggestion', () => {
    expectProblem(() => defineApp(validOptions(project.rootDir, { base: { name: 'acme', region: 'eu-west-1', regoin: 'x' }, infrastructure: infra() })), 'FW_ERR_CONFIG_UNKNOWN_FIELD', 'base.regoin', /Did you mean "region"\?$/);
    expectProblem(() => defineApp({ ...validOptions(project.rootDir, { infrastructure: infra() }), routesdir: 'src/routes' } as never), 'FW_ERR_CONFIG_UNKNOWN_FIELD', 'routesdir', /is not an option of defineApp/);
    expectProblem(() => defineApp({ ...validOptions(project.rootDir, { infrastructure: infra() }), infrastucture: {} } as never), 'FW_ERR_CONFIG_UNKNOWN_FIELD', 'infrastucture', /is not an option of defineApp\. Did you mean "infrastructure"\?/);
  });

  it('FW_ERR_CONFIG_DUPLICATE_ID: two intents of a kind share an id', () => {
    expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ queues: [{ id: 'emails' }, { id: 'emails', batchSize: 1 }] }) })), 'FW_ERR_CONFIG_DUPLICATE_ID', 'infrastructure.queues[1].id', 'id "emails" is already used by infrastructure.queues[0]; ids must be unique');
  });

  it('FW_ERR_CONFIG_UNDECLARED_SCOPE: an app client asks for a scope security.scopes lacks', () => {
    const security = { scopes: { 'tasks:read': 'Read' }, appClients: { web: { scopes: ['tasks:read', 'tasks:write'], flows: ['authorization_code'] } } };
    expectProblem(() => defineApp(validOptions(project.rootDir, { security, infrastructure: infra() })), 'FW_ERR_CONFIG_UNDECLARED_SCOPE', 'security.appClients.web.scopes[1]', /^scope "tasks:write" is not declared in security.scopes \(declared: "tasks:read"\)/);
  });

  it('FW_ERR_CONFIG_UNDECLARED_SCOPE: a role grants a scope security.scopes lacks, with a did-you-mean', () => {
    const security = { scopes: { 'tasks:read': 'Read', 'tasks:write': 'Write' }, roles: { member: { scopes: ['tasks:read'] }, admin: { scopes: ['tasks:read', 'tasks:wirte'] } } };
    expectProblem(
      () => defineApp(validOptions(project.rootDir, { security, infrastructure: infra() })),
      'FW_ERR_CONFIG_UNDECLARED_SCOPE',
      'security.roles.admin.scopes[1]',
      'scope "tasks:wirte" is not declared in security.scopes (declared: "tasks:read", "tasks:write"); did you mean "tasks:write"? Otherwise add it there or remove it here',
    );
  });

  it('security.everyUser: its scopes must be declared, and it needs roles (without roles every user gets every scope already)', () => {
    const scopes = { 'tasks:read': 'Read', 'workspaces:create': 'Create a workspace' };
    const roles = { member: { scopes: ['tasks:read'] } };
    expectProblem(
      () => defineApp(validOptions(project.rootDir, { security: { scopes, roles, everyUser: { scopes: ['workspace:create'] } }, infrastructure: infra() })),
      'FW_ERR_CONFIG_UNDECLARED_SCOPE',
      'security.everyUser.scopes[0]',
      /^scope "workspace:create" is not declared in security.scopes .*did you mean "workspaces:create"\?/,
    );
    expectProblem(() => defineApp(validOptions(project.rootDir, { security: { scopes, everyUser: { scopes: ['workspaces:create'] } }, infrastructure: infra() })), 'FW_ERR_CONFIG_INVALID_VALUE', 'security.everyUser', /no roles are declared.*declare roles, or remove everyUser$/);
    const app = defineApp(validOptions(project.rootDir, { security: { scopes, roles, everyUser: { scopes: ['workspaces:create'] } }, infrastructure: infra() }));
    expect(app.config.security.everyUser).to.deep.equal({ scopes: ['workspaces:create'] });
  });

  it('FW_ERR_CONFIG_UNDECLARED_ROLE: a seeded dev user names a role security.roles lacks, with a did-you-mean', () => {
    const security = { scopes: { 'tasks:read': 'Read' }, roles: { member: { scopes: ['tasks:read'] } } };
    const envs = { dev: { preset: 'free', auth: { users: [{ username: 'mia', password: 'correct horse', roles: ['membr'] }] } } };
    expectProblem(
      () => defineApp(validOptions(project.rootDir, { security, envs, infrastructure: infra() })),
      'FW_ERR_CONFIG_UNDECLARED_ROLE',
      'envs.dev.auth.users[0].roles[0]',
      'role "membr" is not declared in security.roles (declared: "member"); did you mean "member"? Otherwise add it there or remove it here',
    );
  });

  it('a seeded dev user needs a password of at least 8 characters, and a username once', () => {
    const security = { scopes: { 'tasks:read': 'Read' }, roles: { member: { scopes: ['tasks:read'] } } };
    const envs = { dev: { preset: 'free', auth: { users: [{ username: 'mia', password: 'short' }, { username: 'mia', password: 'long enough' }] } } };
    const error = thrownBy(() => defineApp(validOptions(project.rootDir, { security, envs, infrastructure: infra() }))) as ConfigError;
    expect(error.problems.map((p) => [p.code, p.path])).to.deep.include.members([
      ['FW_ERR_CONFIG_INVALID_VALUE', 'envs.dev.auth.users[0].password'],
      ['FW_ERR_CONFIG_INVALID_VALUE', 'envs.dev.auth.users[1].username'],
    ]);
  });

  it('seeded dev users reach the resolved config of their stage', () => {
    const security = { scopes: { 'tasks:read': 'Read' }, roles: { member: { scopes: ['tasks:read'] } } };
    const envs = { dev: { preset: 'free', auth: { users: [{ username: 'mia', password: 'correct horse', roles: ['member'] }] } } };
    const app = defineApp(validOptions(project.rootDir, { security, envs, infrastructure: infra() }));
    expect(app.config.auth?.users).to.deep.equal([{ username: 'mia', password: 'correct horse', roles: ['member'] }]);
  });

  it('FW_ERR_CONFIG_UNDECLARED_SCOPE: a role cannot grant an inherited property name as a scope', () => {
    const security = { scopes: { 'tasks:read': 'Read' }, roles: { admin: { scopes: ['constructor'] } } };
    expectProblem(() => defineApp(validOptions(project.rootDir, { security, infrastructure: infra() })), 'FW_ERR_CONFIG_UNDECLARED_SCOPE', 'security.roles.admin.scopes[0]', /^scope "constructor" is not declared/);
  });

  it('FW_ERR_CONFIG_UNKNOWN_STAGE: the stage to build has no environment', () => {
    expectProblem(() => defineApp(validOptions(project.rootDir, { stage: 'staging', infrastructure: infra() })), 'FW_ERR_CONFIG_UNKNOWN_STAGE', 'envs.staging', /^stage "staging" \(from the stage option\) has no environment; declared stages: dev, prod/);
  });

  describe('FW_ERR_CONFIG_RESERVED_WORD', () => {
    it('refuses a Cognito domain prefix containing aws, amazon or cognito, naming the word and the fix', () => {
      for (const [prefix, word] of [['my-aws-app', 'aws'], ['amazonshop', 'amazon'], ['acme-cognito', 'cognito']] as const) {
        expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ auth: { domainPrefix: prefix } }) })), 'FW_ERR_CONFIG_RESERVED_WORD', 'infrastructure.auth.domainPrefix', new RegExp(`containing "${word}".*leave domainPrefix out`));
      }
    });

    it("refuses a prefix outside Cognito's syntax, and keeps a valid one as given", () => {
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ auth: { domainPrefix: 'Acme_Login' } }) })), 'FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.auth.domainPrefix', /^expected a domain prefix of 1 to 63 lowercase letters/);
      const app = defineApp(validOptions(project.rootDir, { infrastructure: infra({ auth: { domainPrefix: 'acme-login' } }) }));
      expect(app.auth).to.deep.include({ domainPrefix: 'acme-login', domainPrefixUnique: false });
    });

    it('defaults to {project}-{stage}, marked for the unique suffix the stack appends', () => {
      const app = defineApp(validOptions(project.rootDir, { infrastructure: infra({ auth: {} }) }));
      expect(app.auth).to.deep.include({ domainPrefix: 'acme-dev', domainPrefixUnique: true });
    });
  });

  it('FW_ERR_CONFIG_INVALID_VALUE: a database engineVersion that is not a PostgreSQL major or major.minor; the default is 17', () => {
    expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ databases: [{ id: 'main', engineVersion: '16.6.1' }] }) })), 'FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.databases[0].engineVersion', /^expected a PostgreSQL version: a major such as "17" or a major.minor such as "17.9", got "16.6.1"$/);
    const app = defineApp(validOptions(project.rootDir, { infrastructure: infra({ databases: [{ id: 'main' }, { id: 'old', engineVersion: '16.13' }] }) }));
    expect(app.databases.map((d) => d.engineVersion)).to.deep.equal(['17', '16.13']);
  });

  describe('FW_ERR_CONFIG_NAME_CLASH', () => {
    it('reports function files a/b-c and a-b/c, which both become fn-a-b-c, naming the file', () => {
      project.add('src/functions/a/b-c.ts').add('src/functions/a-b/c.ts');
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra() })), 'FW_ERR_CONFIG_NAME_CLASH', 'src/functions/a/b-c.ts', /same function name as src\/functions\/a-b\/c.ts/);
    });

    it('reports two cache ids that share a variable token', () => {
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ caches: [{ id: 'user-sessions' }, { id: 'user_sessions' }] }) })), 'FW_ERR_CONFIG_NAME_CLASH', 'infrastructure.caches[1].id', /both become the variable token USER_SESSIONS/);
    });

    it("reports a queue named like another queue's dead-letter queue", () => {
      project.add('src/queues/emails-dlq.ts');
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ queues: [{ id: 'emails' }, { id: 'emails-dlq' }] }) })), 'FW_ERR_CONFIG_NAME_CLASH', 'infrastructure.queues[1].id', /dead-letter queue of queue "emails"/);
      // And without a dead-letter queue on "emails" the two names are free
      const app = defineApp(validOptions(project.rootDir, { infrastructure: infra({ queues: [{ id: 'emails', deadLetterQueue: false }, { id: 'emails-dlq' }] }) }));
      expect(app.queues.map((q) => q.queueName)).to.deep.equal(['acme-dev-emails', 'acme-dev-emails-dlq']);
    });
  });

  describe('route discovery errors name the file', () => {
    it('FW_ERR_ROUTE_NOT_A_METHOD: a route file not named after a method', () => {
      project.add('src/routes/tasks/list.ts');
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra() })), 'FW_ERR_ROUTE_NOT_A_METHOD', 'src/routes/tasks/list.ts', /^"list" is not an HTTP method; name route files get, post, put, patch, delete, head, options/);
    });

    it('FW_ERR_ROUTE_BAD_SEGMENT: a folder that is not a path segment', () => {
      project.add('src/routes/my tasks/get.ts');
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra() })), 'FW_ERR_ROUTE_BAD_SEGMENT', 'src/routes/my tasks/get.ts', /^folder "my tasks" is not a path segment/);
    });

    it('FW_ERR_ROUTE_BAD_SEGMENT: a catch-all that is not the last folder', () => {
      project.add('src/routes/files/[...rest]/meta/get.ts');
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra() })), 'FW_ERR_ROUTE_BAD_SEGMENT', 'src/routes/files/[...rest]/meta/get.ts', 'catch-all segment "[...rest]" must be the last folder of the path');
    });

    it('FW_ERR_ROUTE_BAD_SEGMENT: a parameter used twice in one path', () => {
      project.add('src/routes/a/[id]/b/[id]/get.ts');
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra() })), 'FW_ERR_ROUTE_BAD_SEGMENT', 'src/routes/a/[id]/b/[id]/get.ts', /parameter "id" appears twice/);
    });

    it('FW_ERR_ROUTE_CONFLICT: [id] and [taskId] at one position are one route', () => {
      project.add('src/routes/tasks/[id]/get.ts').add('src/routes/tasks/[taskId]/get.ts');
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra() })), 'FW_ERR_ROUTE_CONFLICT', 'src/routes/tasks/[taskId]/get.ts', 'maps to GET /tasks/{taskId}, like src/routes/tasks/[id]/get.ts; keep one of the two files');
    });

    it('FW_ERR_ROUTE_CONFLICT: get.ts and get.js in one folder', () => {
      project.add('src/routes/tasks/get.js');
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra() })), 'FW_ERR_ROUTE_CONFLICT', 'src/routes/tasks/get.ts', /maps to GET \/tasks, like src\/routes\/tasks\/get.js/);
    });
  });

  describe('intents and files', () => {
    it('FW_ERR_INTENT_WITHOUT_FILE: a queue, schedule or function intent without its file', () => {
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ queues: [{ id: 'emails' }, { id: 'billing' }] }) })), 'FW_ERR_INTENT_WITHOUT_FILE', 'infrastructure.queues[1]', 'queue "billing" has no handler file: create src/queues/billing.ts exporting main');
      expectProblem(
        () => defineApp(validOptions(project.rootDir, { infrastructure: infra({ schedules: [{ id: 'cleanup', schedule: { rate: '1 hour' } }, { id: 'nightly', schedule: { rate: '1 day' } }] }) })),
        'FW_ERR_INTENT_WITHOUT_FILE',
        'infrastructure.schedules[1]',
        'schedule "nightly" has no handler file: create src/crons/nightly.ts exporting main',
      );
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ functions: [{ id: 'reports/weekly' }] }) })), 'FW_ERR_INTENT_WITHOUT_FILE', 'infrastructure.functions[0]', 'function "reports/weekly" has no handler file: create src/functions/reports/weekly.ts exporting main');
    });

    it('FW_ERR_FILE_WITHOUT_INTENT: a queue consumer or cron file nobody declared', () => {
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ queues: [] }) })), 'FW_ERR_FILE_WITHOUT_INTENT', 'src/queues/emails.ts', "no queue intent declares it: add { id: 'emails' } to infrastructure.queues, or remove the file");
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra({ schedules: [] }) })), 'FW_ERR_FILE_WITHOUT_INTENT', 'src/crons/cleanup.ts', /^no schedule intent declares it: add \{ id: 'cleanup', schedule: \{ rate: '1 hour' \} \}/);
    });

    it('a function file without an intent is fine and gets the preset defaults', () => {
      const app = defineApp(validOptions(project.rootDir, { infrastructure: infra() }));
      expect(app.functions[0]).to.include({ functionName: 'acme-dev-fn-reports-daily', memorySize: 128, timeout: 10 });
    });

    it('FW_ERR_BAD_FILE_NAME: a file name that cannot become a unit name, or a nested queue file', () => {
      project.add('src/functions/reports/daily report.ts');
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra() })), 'FW_ERR_BAD_FILE_NAME', 'src/functions/reports/daily report.ts', /letters, digits, "-" or "_"/);
      project.remove();
      project = new TempProject(['src/queues/emails.ts', 'src/crons/cleanup.ts', 'src/queues/sub/deep.ts']);
      expectProblem(() => defineApp(validOptions(project.rootDir, { infrastructure: infra() })), 'FW_ERR_BAD_FILE_NAME', 'src/queues/sub/deep.ts', 'queue consumer files live directly in src/queues/ (no sub-folders); move it to src/queues/deep.ts');
    });
  });

  it('a config with five problems reports all five, each with its path', () => {
    // Given five independent mistakes in four places
    const options = {
      ...validOptions(project.rootDir),
      base: { name: 'Acme!', region: 'eu-west-1' },
      security: { scopes: { 'tasks:read': 'Read' }, appClients: { web: { scopes: ['tasks:write'], flows: ['authorization_code'] } } },
      envs: { dev: { preset: 'free' }, prod: { preset: 'medium', overrides: { functions: { memorySize: 'big' } } } },
      infrastructure: infra({ queues: [{ id: 'emails', batchSize: 50 }] }),
      routesdir: 'src/routes',
    };
    // When the app is defined
    const problems = problemsOf(() => defineApp(options as never));
    // Then one error lists all five, and nothing else (the bad queue field does not hide the queue's file)
    expect(problems.map((p) => [p.code, p.path])).to.have.deep.members([
      ['FW_ERR_CONFIG_UNKNOWN_FIELD', 'routesdir'],
      ['FW_ERR_CONFIG_INVALID_VALUE', 'base.name'],
      ['FW_ERR_CONFIG_UNDECLARED_SCOPE', 'security.appClients.web.scopes[0]'],
      ['FW_ERR_CONFIG_INVALID_VALUE', 'envs.prod.overrides.functions.memorySize'],
      ['FW_ERR_CONFIG_INVALID_VALUE', 'infrastructure.queues[0].batchSize'],
    ]);
    const message = (thrownBy(() => defineApp(options as never)) as Error).message;
    expect(message).to.match(/^Invalid framework configuration \(5 problems\):\n/);
    for (const p of problems) expect(message).to.include(`  - ${p.path}: ${p.message}`);
  });

  describe('coverage', () => {
    // A describe runs after the blocks declared before it: by now each expectProblem call has recorded its code.
    it('has a case above for every problem code', () => {
      expect([...covered].sort()).to.deep.equal(Object.keys(CONFIG_PROBLEM_CODES).sort());
    });
  });
});
