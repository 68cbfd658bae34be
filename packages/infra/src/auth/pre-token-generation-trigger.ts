import { Stack, Token } from 'aws-cdk-lib/core';
import * as iam from 'aws-cdk-lib/aws-iam';
import { AUTH_TRIGGER_ENV, type AuthDefinition, type EnvironmentSettings, type StandaloneFunctionDefinition } from '@framework/core';
import { scopeRulesOf } from '@framework/auth';
import { Construct } from 'constructs';
import type { AuthTriggerBundle } from '../bundling/bundle-app.js';
import { acknowledgeNagFindings } from '../checks/nag-suppressions.js';
import { AppFunction } from '../functions/app-function.js';

/** Props of `PreTokenGenerationTrigger`. */
export interface PreTokenGenerationTriggerProps {
  readonly definition: AuthDefinition;
  readonly bundle: AuthTriggerBundle;
  readonly settings: EnvironmentSettings;
  /** The prefix of custom scopes in tokens. */
  readonly resourceServerIdentifier: string;
}

/** Cognito waits at most 5 seconds for a trigger. */
const TRIGGER_TIMEOUT_SECONDS = 5;

/**
 * The user pool's pre token generation trigger (`@framework/auth/pre-token-generation`, its own function named by
 * core's `preTokenGenerationFunctionName`): the access token gets the user's tenant (`custom:tenant_id`) and, when the
 * security config declares roles, exactly the scopes of the user's roles that the app client may request. Its variables carry the roles and the clients' scopes by name (`FW_AUTH_SCOPE_RULES`), not
 * the client ids: those belong to the pool, which references this function, so they would make a CloudFormation
 * cycle. The function finds a client's name with `DescribeUserPoolClient` (allowed on the account's pools in this
 * region, for the same reason: the pool's ARN would close the cycle).
 */
export class PreTokenGenerationTrigger extends Construct {
  public readonly function: AppFunction;

  constructor(scope: Construct, id: string, props: PreTokenGenerationTriggerProps) {
    super(scope, id);
    const hasRoles = Object.keys(props.definition.roles).length > 0;
    const unit: StandaloneFunctionDefinition = {
      kind: 'function',
      id: 'auth/pre-token-generation',
      file: '@framework/auth/pre-token-generation',
      functionName: props.bundle.functionName,
      memorySize: 256,
      timeout: TRIGGER_TIMEOUT_SECONDS,
      environment: {},
      description: hasRoles ? "Puts the user's tenant and the scopes of their roles into access tokens (Cognito pre token generation)" : "Puts the user's tenant into access tokens (Cognito pre token generation)",
    };
    this.function = new AppFunction(this, 'Function', {
      unit,
      bundle: props.bundle,
      settings: props.settings,
      environment: {
        [AUTH_TRIGGER_ENV.scopeRules]: JSON.stringify(scopeRulesOf(props.definition)),
        [AUTH_TRIGGER_ENV.resourceServer]: props.resourceServerIdentifier,
      },
    });
    // Without roles the function never names the client (the scopes stay as Cognito issues them): no Cognito call.
    if (!hasRoles) return;
    const stack = Stack.of(this);
    const pools = stack.formatArn({ service: 'cognito-idp', resource: 'userpool', resourceName: '*' });
    this.function.function.addToRolePolicy(new iam.PolicyStatement({ actions: ['cognito-idp:DescribeUserPoolClient'], resources: [pools] }));
    // cdk-nag names the finding with the stack's region and account where they are known, else their pseudo-parameters.
    const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
    const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
    acknowledgeNagFindings(this.function.function.role!, 'authTriggerClients', [`Resource::arn:<AWS::Partition>:cognito-idp:${region}:${account}:userpool/*`]);
  }
}
