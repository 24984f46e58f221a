/**
 * Credentials for Nova, Kubernetes and Consul live in Secrets Manager, created by the operator
 * (docs/deploy.md) and referenced here by name: never in environment variables, templates or logs.
 * A function that needs one gets read access to that secret only, and its name in the environment.
 */
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { PlacidConfig } from './config.js';

export type SecretName = 'nova' | 'kubernetes' | 'consul';

export class ServiceSecrets extends Construct {
  readonly secrets: Record<SecretName, ISecret>;

  constructor(scope: Construct, id: string, props: { config: PlacidConfig }) {
    super(scope, id);
    const { config } = props;
    const names: Record<SecretName, string> = {
      nova: config.novaSecretName,
      kubernetes: config.kubernetesSecretName,
      consul: config.consulSecretName,
    };
    this.secrets = Object.fromEntries(
      Object.entries(names).map(([key, name]) => [key, Secret.fromSecretNameV2(this, key, name)]),
    ) as Record<SecretName, ISecret>;
  }

  /** GetSecretValue and DescribeSecret on one secret; returns the env entry with its name. */
  grantRead(grantee: IGrantable, which: SecretName): Record<string, string> {
    this.secrets[which].grantRead(grantee);
    return { [`PLACID_SECRET_${which.toUpperCase()}`]: this.secrets[which].secretName };
  }
}
