import { expect } from 'chai';
import fc from 'fast-check';
import {
  NAME_LIMITS,
  NamingError,
  authDomainPrefixBase,
  cacheName,
  cronFunctionName,
  cronRuleName,
  deadLetterQueueName,
  disambiguatedRouteFunctionName,
  fitName,
  migrationFunctionName,
  queueFunctionName,
  queueName,
  routeFunctionName,
  standaloneFunctionName,
} from '../../src/index.js';
import * as names from '../../src/names.js';
import { expectedPath, functionId, httpMethod, intentId, projectName, routeSpec, stageName } from '../helpers/arbitraries.js';

const LAMBDA_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const SQS_NAME = /^[A-Za-z0-9_-]{1,80}$/;
const RULE_NAME = /^[A-Za-z0-9._-]{1,64}$/;

describe('naming', () => {
  describe('the naming table of the README', () => {
    it('names standalone functions, queues, consumers, dead-letter queues, crons and rules', () => {
      expect(standaloneFunctionName('acme', 'dev', 'reports/daily')).to.equal('acme-dev-fn-reports-daily');
      expect(queueName('acme', 'dev', 'emails')).to.equal('acme-dev-emails');
      expect(queueFunctionName('acme', 'dev', 'emails')).to.equal('acme-dev-queue-emails');
      expect(deadLetterQueueName('acme', 'dev', 'emails')).to.equal('acme-dev-emails-dlq');
      expect(cronFunctionName('acme', 'dev', 'cleanup')).to.equal('acme-dev-cron-cleanup');
      expect(cronRuleName('acme', 'dev', 'cleanup')).to.equal('acme-dev-cron-cleanup');
    });

    it('names route functions after method and path', () => {
      expect(routeFunctionName('acme', 'dev', 'PUT', '/tasks/{id}')).to.equal('acme-dev-route-put-tasks-id');
      expect(routeFunctionName('acme', 'dev', 'GET', '/')).to.equal('acme-dev-route-get-root');
      expect(routeFunctionName('acme', 'dev', 'GET', '/files/{rest+}')).to.equal('acme-dev-route-get-files-rest');
      expect(routeFunctionName('acme', 'dev', 'GET', '/v1.0/a~b')).to.equal('acme-dev-route-get-v1-0-a-b');
    });

    it('names caches in the characters ElastiCache accepts', () => {
      expect(cacheName('acme', 'dev', 'User_Sessions')).to.equal('acme-dev-user-sessions');
      expect(cacheName('acme', 'dev', 'a__b-')).to.equal('acme-dev-a-b');
    });

    it('bases the default Cognito domain prefix on {project}-{stage}, without the words Cognito refuses, with room for the suffix', () => {
      expect(authDomainPrefixBase('acme', 'dev')).to.equal('acme-dev');
      expect(authDomainPrefixBase('my_aws-tools', 'Prod')).to.equal('my-tools-prod');
      expect(authDomainPrefixBase('amazon', 'cognito')).to.equal('auth');
      const long = authDomainPrefixBase('a'.repeat(32), 'b'.repeat(40));
      expect(long.length).to.be.at.most(NAME_LIMITS.cognitoDomainPrefix - 9);
      expect(long).to.match(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/);
    });

    it('is exported from @framework/core/names too (the Lambda-safe entry point)', () => {
      expect(names.standaloneFunctionName).to.equal(standaloneFunctionName);
      expect(names.queueEnv('emails').url).to.equal('FW_QUEUE_EMAILS_URL');
    });

    it('throws a NamingError for ids that can never be names', () => {
      expect(() => standaloneFunctionName('acme', 'dev', 'a//b')).to.throw(NamingError, /function id "a\/\/b"/);
      expect(() => queueName('acme', 'dev', 'a/b')).to.throw(NamingError);
      expect(() => queueName('acme', 'dev', '')).to.throw(NamingError);
      expect(() => cronRuleName('acme', 'd ev', 'x')).to.throw(NamingError).with.property('code', 'FW_ERR_NAMING');
    });
  });

  describe('shortening', () => {
    it('keeps names that fit and shortens longer ones to the limit with a hash of the whole name', () => {
      // Given a 70-character name and a 64-character limit
      const long = `acme-dev-fn-${'x'.repeat(58)}`;
      // When it is fitted
      const fitted = fitName(long, 64);
      // Then it keeps a readable prefix and ends with 8 hex characters
      expect(fitted).to.have.length.at.most(64);
      expect(fitted).to.match(/^acme-dev-fn-x+-[0-9a-f]{8}$/);
      expect(fitName('short', 64)).to.equal('short');
      expect(fitName(`${long}y`, 64)).not.to.equal(fitted);
    });

    it('never leaves "--" before the hash', () => {
      expect(fitName(`${'a'.repeat(54)}-${'b'.repeat(20)}`, 64)).to.match(/^a{54}-[0-9a-f]{8}$/);
    });
  });

  describe('properties, for any valid project, stage and ids', () => {
    it('every name is within its limit, in the allowed characters, and deterministic', () => {
      fc.assert(
        fc.property(projectName, stageName, intentId, functionId, httpMethod, routeSpec, (project, stage, id, fnId, method, route) => {
          const path = expectedPath(route.folders);
          const lambdas = [
            standaloneFunctionName(project, stage, fnId),
            queueFunctionName(project, stage, id),
            cronFunctionName(project, stage, id),
            migrationFunctionName(project, stage, id),
            routeFunctionName(project, stage, method, path),
            disambiguatedRouteFunctionName(project, stage, method, path),
          ];
          for (const name of lambdas) expect(name).to.match(LAMBDA_NAME);
          for (const name of [queueName(project, stage, id), deadLetterQueueName(project, stage, id)]) expect(name).to.match(SQS_NAME);
          expect(cronRuleName(project, stage, id)).to.match(RULE_NAME);
          expect(cacheName(project, stage, id)).to.have.length.at.most(NAME_LIMITS.cache).and.match(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
          // Deterministic: the same inputs give the same names
          expect(standaloneFunctionName(project, stage, fnId)).to.equal(lambdas[0]);
          expect(routeFunctionName(project, stage, method, path)).to.equal(lambdas[4]);
        }),
        { numRuns: 500 },
      );
    });

    it('names that fit are exactly the readable form of the table', () => {
      fc.assert(
        fc.property(projectName, stageName, functionId, intentId, (project, stage, fnId, id) => {
          const readable = `${project}-${stage}-fn-${fnId.split('/').join('-')}`;
          if (readable.length <= NAME_LIMITS.lambdaFunction) expect(standaloneFunctionName(project, stage, fnId)).to.equal(readable);
          else {
            // Longer ones keep a readable prefix of the same text, then the hash
            const fitted = standaloneFunctionName(project, stage, fnId);
            expect(fitted).to.have.length.at.most(NAME_LIMITS.lambdaFunction).and.match(/-[0-9a-f]{8}$/);
            expect(readable.startsWith(fitted.slice(0, -9))).to.equal(true);
          }
          const readableQueue = `${project}-${stage}-${id}`;
          if (readableQueue.length <= NAME_LIMITS.sqsQueue) expect(queueName(project, stage, id)).to.equal(readableQueue);
          else expect(queueName(project, stage, id)).to.have.length.at.most(NAME_LIMITS.sqsQueue).and.match(/-[0-9a-f]{8}$/);
        }),
        { numRuns: 300 },
      );
    });

    it('distinct ids of one kind get distinct names within an app', () => {
      fc.assert(
        fc.property(projectName, stageName, fc.uniqueArray(intentId, { minLength: 2, maxLength: 30 }), (project, stage, ids) => {
          for (const nameOf of [queueName, queueFunctionName, cronFunctionName, cronRuleName, migrationFunctionName, deadLetterQueueName]) {
            const all = ids.map((id) => nameOf(project, stage, id));
            expect(new Set(all).size, nameOf.name).to.equal(ids.length);
          }
        }),
        { numRuns: 300 },
      );
    });

    it('function ids with distinct "-"-joined forms get distinct names; the kinds never share a Lambda name', () => {
      fc.assert(
        fc.property(projectName, stageName, fc.uniqueArray(functionId, { minLength: 1, maxLength: 20, selector: (id) => id.split('/').join('-') }), intentId, (project, stage, fnIds, id) => {
          const all = [
            ...fnIds.map((f) => standaloneFunctionName(project, stage, f)),
            queueFunctionName(project, stage, id),
            cronFunctionName(project, stage, id),
            migrationFunctionName(project, stage, id),
          ];
          expect(new Set(all).size).to.equal(all.length);
        }),
        { numRuns: 300 },
      );
    });

    it('a queue and the dead-letter queues of other queues never share a name unless one id is the other plus "-dlq"', () => {
      fc.assert(
        fc.property(projectName, stageName, fc.uniqueArray(intentId, { minLength: 1, maxLength: 20 }), (project, stage, ids) => {
          const clashFree = ids.filter((id) => !ids.includes(`${id}-dlq`));
          const all = [...ids.map((id) => queueName(project, stage, id)), ...clashFree.map((id) => deadLetterQueueName(project, stage, id))];
          expect(new Set(all).size).to.equal(all.length);
        }),
        { numRuns: 300 },
      );
    });
  });
});

describe('naming at the longest inputs', () => {
  it('shortens every kind of name for a 32-character project, a 20-character stage and 48-character ids', () => {
    // Given the longest valid project, stage and id
    const project = `p${'r'.repeat(30)}t`;
    const stage = `s${'t'.repeat(19)}`;
    const id = `i${'d'.repeat(47)}`;
    // Then every name keeps a readable prefix, ends with the hash of the full name, and fits its limit
    const queues = [queueName(project, stage, id), deadLetterQueueName(project, stage, id)];
    for (const name of queues) expect(name).to.have.length.at.most(NAME_LIMITS.sqsQueue).and.match(new RegExp(`^${project}-${stage}-id+-[0-9a-f]{8}$`));
    expect(queues[0]).not.to.equal(queues[1]);
    for (const name of [queueFunctionName(project, stage, id), cronFunctionName(project, stage, id), standaloneFunctionName(project, stage, `${id}/${id}`)]) {
      expect(name).to.have.length.at.most(NAME_LIMITS.lambdaFunction).and.match(new RegExp(`^${project}-${stage}-[a-z-]+-[0-9a-f]{8}$`));
    }
    expect(cronRuleName(project, stage, id)).to.equal(cronFunctionName(project, stage, id));
  });
});
