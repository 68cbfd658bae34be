import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { NetworkSettings } from '@framework/core';
import { Construct } from 'constructs';
import { acknowledgeNag } from '../checks/nag-suppressions.js';

/** Props of `AppNetwork`. */
export interface AppNetworkProps {
  /** NAT gateways and availability zones, from the stage's preset. */
  readonly settings: NetworkSettings;
  /**
   * Add a Secrets Manager interface endpoint. Needed when functions in the VPC read database credentials and there
   * is no NAT gateway to reach the service's public endpoint.
   * @default false
   */
  readonly secretsManagerEndpoint?: boolean;
}

/**
 * The private network: a VPC sized by the preset, gateway endpoints for S3 and DynamoDB (free, and they keep that
 * traffic off the NAT), and one security group every function in the VPC shares, which databases and caches admit.
 * With NAT gateways, functions sit in private subnets with egress; without (`free`, `nano`), in isolated subnets.
 */
export class AppNetwork extends Construct {
  public readonly vpc: ec2.Vpc;
  /** Where functions (and databases, caches) are placed. */
  public readonly privateSubnets: ec2.SubnetSelection;
  /** The security group of every function in the VPC. */
  public readonly functionSecurityGroup: ec2.SecurityGroup;

  constructor(scope: Construct, id: string, props: AppNetworkProps) {
    super(scope, id);
    const { natGateways, maxAzs } = props.settings;
    const privateType = natGateways > 0 ? ec2.SubnetType.PRIVATE_WITH_EGRESS : ec2.SubnetType.PRIVATE_ISOLATED;
    this.vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs,
      natGateways,
      subnetConfiguration: [
        ...(natGateways > 0 ? [{ name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 }] : []),
        { name: 'private', subnetType: privateType, cidrMask: 22 },
      ],
      gatewayEndpoints: {
        S3: { service: ec2.GatewayVpcEndpointAwsService.S3 },
        DynamoDB: { service: ec2.GatewayVpcEndpointAwsService.DYNAMODB },
      },
      // Restricting the default group needs a custom-resource Lambda; nothing is placed in the default group anyway.
      restrictDefaultSecurityGroup: false,
    });
    this.privateSubnets = { subnetType: privateType };
    acknowledgeNag(this.vpc, 'noFlowLogs');
    this.functionSecurityGroup = new ec2.SecurityGroup(this, 'FunctionSecurityGroup', {
      vpc: this.vpc,
      description: 'Functions of the app that use a database or cache',
      allowAllOutbound: true,
    });
    if (props.secretsManagerEndpoint) {
      // Only the functions reach the endpoint (not the whole VPC range).
      const endpoint = this.vpc.addInterfaceEndpoint('SecretsManager', { service: ec2.InterfaceVpcEndpointAwsService.SECRETS_MANAGER, subnets: this.privateSubnets, privateDnsEnabled: true, open: false });
      endpoint.connections.allowDefaultPortFrom(this.functionSecurityGroup, 'Functions of the app');
    }
  }
}
