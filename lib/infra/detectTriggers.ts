/**
 * What runs the detector: EventBridge Scheduler every minute (flexible window off), and two rules on
 * the default bus: Placid's own events (an operator's request, a plan approval) and CloudWatch
 * alarms named with `placid:detectAlarmPrefix` going into ALARM. Every route retries and ends in
 * the trigger dead-letter queue.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Match, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression, ScheduleTargetInput, TimeWindow } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import { DETECT_EVENTS, SCHEDULED_DETECT_INPUT } from './detectEvents.js';
import type { EventDeadLetters } from './eventDeadLetters.js';

export interface DetectTriggersProps {
  readonly detector: IFunction;
  readonly deadLetters: EventDeadLetters;
  readonly alarmPrefix: string;
}

export class DetectTriggers extends Construct {
  readonly schedule: Schedule;
  readonly schedulerRole: Role;
  /** `Placid Detect Requested` and `Placid Plan Approved` events on the default bus. */
  readonly onDemandRule: Rule;
  readonly onAlarmRule: Rule;
  /** Attach to operators: put the two Placid events on the default bus, nothing else. */
  readonly requesterPolicy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: DetectTriggersProps) {
    super(scope, id);
    const { detector, deadLetters } = props;
    const stack = Stack.of(this);

    this.schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
      description: 'EventBridge Scheduler: invoke the Placid detector every minute',
    });
    // The target grants lambda:InvokeFunction and sqs:SendMessage; the dead letters are also encrypted.
    for (const statement of deadLetters.sendStatements()) this.schedulerRole.addToPrincipalPolicy(statement);
    this.schedule = new Schedule(this, 'Schedule', {
      description: 'Placid reconcile loop: run the detector every minute',
      schedule: ScheduleExpression.rate(Duration.minutes(1)),
      timeWindow: TimeWindow.off(),
      target: new LambdaInvoke(detector, {
        role: this.schedulerRole,
        input: ScheduleTargetInput.fromObject(SCHEDULED_DETECT_INPUT),
        deadLetterQueue: deadLetters.queue,
        // A tick that could not be delivered within a minute is superseded by the next one.
        maxEventAge: Duration.minutes(1),
        retryAttempts: 2,
      }),
    });
    const fnArn = stack.getLogicalId(detector.node.defaultChild as never);
    Validations.of(this.schedulerRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${fnArn}.Arn>:*]`,
      reason:
        'The Scheduler target grants invoke on every version and alias of the one detector function (CDK default)',
    });

    // A request or an approval must not be lost to a brief outage: retry for up to an hour.
    const target = () =>
      new LambdaFunction(detector, {
        deadLetterQueue: deadLetters.queue,
        maxEventAge: Duration.hours(1),
        retryAttempts: 10,
      });
    this.onDemandRule = new Rule(this, 'OnDemandRule', {
      description: 'Run the Placid detector when an operator asks or approves a plan',
      eventPattern: {
        source: [DETECT_EVENTS.source],
        detailType: [DETECT_EVENTS.detectRequested, DETECT_EVENTS.planApproved],
      },
      targets: [target()],
    });
    this.onAlarmRule = new Rule(this, 'OnAlarmRule', {
      description: `Run the Placid detector when an alarm named ${props.alarmPrefix}* goes into ALARM`,
      eventPattern: {
        source: ['aws.cloudwatch'],
        detailType: [DETECT_EVENTS.alarmStateChange],
        detail: { alarmName: Match.prefix(props.alarmPrefix), state: { value: ['ALARM'] } },
      },
      targets: [target()],
    });

    this.requesterPolicy = new ManagedPolicy(this, 'RequesterPolicy', {
      description: 'Placid operators: request a detector run and approve plans (EventBridge events)',
      statements: [
        new PolicyStatement({
          actions: ['events:PutEvents'],
          resources: [stack.formatArn({ service: 'events', resource: 'event-bus', resourceName: 'default' })],
          conditions: {
            StringEquals: {
              'events:source': DETECT_EVENTS.source,
              'events:detail-type': [DETECT_EVENTS.detectRequested, DETECT_EVENTS.planApproved],
            },
          },
        }),
      ],
    });
  }
}
