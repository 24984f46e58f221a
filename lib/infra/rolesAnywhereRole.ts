/**
 * A role that hosts outside AWS assume with an X.509 certificate through IAM Roles Anywhere, and
 * its profile. Only a certificate of the named trust anchor whose subject CN is one of `subjects`
 * may assume it: the CA signs other certificates too, and "any certificate of the CA" is not an
 * identity. docs/deploy.md walks the CA, the profile, issuing, rotating and revoking certificates.
 */
import { CfnOutput } from 'aws-cdk-lib';
import { type IManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnProfile } from 'aws-cdk-lib/aws-rolesanywhere';
import { Construct } from 'constructs';

export interface RolesAnywhereRoleProps {
  readonly trustAnchorArn: string;
  /** Certificate subject CNs allowed to assume the role (aws:PrincipalTag/x509Subject/CN). */
  readonly subjects: readonly string[];
  readonly policy: IManagedPolicy;
  /** Who the hosts are, for descriptions and output names, e.g. `Agent`. */
  readonly purpose: string;
}

export class RolesAnywhereRole extends Construct {
  readonly role: Role;
  readonly profile: CfnProfile;

  constructor(scope: Construct, id: string, props: RolesAnywhereRoleProps) {
    super(scope, id);
    const principal = new ServicePrincipal('rolesanywhere.amazonaws.com').withConditions({
      ArnEquals: { 'aws:SourceArn': props.trustAnchorArn },
      StringEquals: { 'aws:PrincipalTag/x509Subject/CN': [...props.subjects] },
    });
    this.role = new Role(this, 'Role', {
      description: `placid ${props.purpose} (IAM Roles Anywhere, certificate CN ${props.subjects.join(', ')})`,
      assumedBy: principal,
      managedPolicies: [props.policy],
    });
    // Roles Anywhere also tags the session with the certificate's subject (what the condition reads).
    this.role.assumeRolePolicy?.addStatements(
      new PolicyStatement({ actions: ['sts:TagSession', 'sts:SetSourceIdentity'], principals: [principal] }),
    );
    this.profile = new CfnProfile(this, 'Profile', {
      name: `placid-${props.purpose.toLowerCase()}-${this.node.addr.slice(0, 8)}`,
      roleArns: [this.role.roleArn],
      enabled: true,
      durationSeconds: 3600,
    });
    new CfnOutput(this, `${props.purpose}RoleArn`, {
      value: this.role.roleArn,
      description: `aws_signing_helper --role-arn for ${props.purpose} hosts`,
    });
    new CfnOutput(this, `${props.purpose}ProfileArn`, {
      value: this.profile.attrProfileArn,
      description: `aws_signing_helper --profile-arn for ${props.purpose} hosts`,
    });
  }
}
