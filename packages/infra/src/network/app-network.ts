import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { NetworkSettings } from '@framework/core';
import { Construct } from 'constructs';
import { acknowledgeNag } from '../checks/nag-suppressions.js';
import { GATEWAY_SERVICES } from './service-reachability.js';

/** Props of `AppNetwork`. */
export interface AppNetworkProps {
  /** NAT gateways and availability zones, from the stage's preset. */
  readonly settings: NetworkSettings;
  /**
   * PrivateLink services (`secretsmanager`, `sqs`, `lambda`, ...) to add interface endpoints for. Needed without NAT
   * gateways: a function in an isolated subnet reaches only S3, DynamoDB (gateway endpoints) and these.
   * @default []
   */
  readonly interfaceEndpoints?: readonly string[];
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
  /** Interface endpoints by service name. */
  public readonly interfaceEndpoints = new Map<string, ec2.InterfaceVpcEndpoint>();
  /** Whether functions reach any AWS service through NAT gateways. */
  public readonly hasNat: boolean;

  constructor(scope: Construct, id: string, props: AppNetworkProps) {
    super(scope, id);
    const { natGateways, maxAzs } = props.settings;
    this.hasNat = natGateways > 0;
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
    // Endpoints are billed per zone and hour. Presets without NAT are the small ones: one zone's endpoint serves the
    // functions of every zone (a zone outage stops those calls, as it would the single-instance database there).
    const endpointSubnets: ec2.SubnetSelection = this.hasNat ? this.privateSubnets : { subnets: this.vpc.selectSubnets(this.privateSubnets).subnets.slice(0, 1) };
    for (const service of [...new Set(props.interfaceEndpoints ?? [])].sort()) {
      // Only the functions reach the endpoint (not the whole VPC range).
      const id = service.replace(/(^|[^A-Za-z0-9])([a-z])/g, (_m, _sep: string, c: string) => c.toUpperCase());
      const endpoint = this.vpc.addInterfaceEndpoint(id, { service: new ec2.InterfaceVpcEndpointAwsService(service), subnets: endpointSubnets, privateDnsEnabled: true, open: false });
      endpoint.connections.allowDefaultPortFrom(this.functionSecurityGroup, 'Functions of the app');
      this.interfaceEndpoints.set(service, endpoint);
    }
  }

  /** Whether a function in the private subnets reaches the service: NAT, a gateway endpoint or an interface endpoint. */
  public reaches(service: string): boolean {
    return this.hasNat || GATEWAY_SERVICES.includes(service) || this.interfaceEndpoints.has(service);
  }
}
