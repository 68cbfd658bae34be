import { expect } from 'chai';
import { NamingError, notifyNames } from '../../src/index.js';

describe('notifyNames', () => {
  it('names the notify resources of a stage once, for the construct, the environment and the outputs', () => {
    expect(notifyNames('tasks', 'prod')).to.deep.equal({
      configurationSet: 'tasks-prod-notify',
      eventsTopic: 'tasks-prod-notify-events',
      dispatchQueue: 'tasks-prod-notify-dispatch',
      dispatchDeadLetterQueue: 'tasks-prod-notify-dispatch-dlq',
    });
  });

  it("keeps the configuration set within SES's 64 characters and refuses names SES and SQS cannot carry", () => {
    const long = notifyNames('a'.repeat(60), 'prod');
    expect(long.configurationSet.length).to.be.at.most(64);
    expect(long.configurationSet).to.match(/^[A-Za-z0-9_-]+$/);
    expect(notifyNames('b'.repeat(60), 'prod').configurationSet).not.to.equal(long.configurationSet);
    expect(() => notifyNames('tasks', 'pr od')).to.throw(NamingError);
  });
});
