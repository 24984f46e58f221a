/**
 * The migration state machine's definition for local runs: the file the build emits
 * (dist/workflow-definition.json, see lib/workflow/definitionFile.ts) with its substitutions
 * filled in with fake ARNs, or the state machine of a template `cdk synth` wrote. Nothing here
 * synthesizes CDK: that takes 10-20 s, which `placid migrate` used to spend before doing anything.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { packageRoot } from '../config/packageRoot.js';
import { PlacidError } from '../model/errors.js';
import {
  DEFINITION_SUBSTITUTIONS,
  type SubstitutionName,
  WORKFLOW_DEFINITION_FILE,
} from '../workflow/definitionFile.js';

const ACCOUNT = '123456789012';
const REGION = 'us-east-1';

/**
 * What the runner binds the Task resources to: it routes by kind (`:activity:` goes to an agent,
 * anything else to the steps dispatcher), so any well-formed ARN of the right kind would do.
 */
export const LOCAL_ARNS: Record<SubstitutionName, string> = {
  [DEFINITION_SUBSTITUTIONS.stepsFunction]: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:WorkflowStepsFunction`,
  [DEFINITION_SUBSTITUTIONS.agentActivity]: `arn:aws:states:${REGION}:${ACCOUNT}:activity:WorkflowAgentSteps`,
};

/**
 * The definition file is missing, unreadable or not a state machine definition: bad input (exit
 * status 2 from every command that runs the workflow), not a bug.
 */
export class WorkflowDefinitionError extends PlacidError {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`cannot get the state machine definition: ${path}: ${detail}`);
  }
}

let emitted: StateMachineDefinition | undefined;

/**
 * The emitted definition (read once per process), or the state machine in `templatePath` (a
 * template `cdk synth` wrote) when one is given. Each call gets its own copy: the runner's state
 * machine library writes into the definition it is given, and one run must not change the next.
 */
export function workflowDefinition(templatePath?: string): StateMachineDefinition {
  if (templatePath) return aslFromTemplate(readJson(templatePath) as CfnTemplate, templatePath);
  emitted ??= emittedDefinition(join(packageRoot(), WORKFLOW_DEFINITION_FILE));
  return structuredClone(emitted);
}

/** The definition in `path` (as the build emits it) with its `${…}` substitutions filled in. */
export function emittedDefinition(path: string): StateMachineDefinition {
  const definition = substitute(readJson(path), path);
  return asDefinition(definition, path);
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint = path.endsWith(WORKFLOW_DEFINITION_FILE) ? ': run `npm run build`, which emits it' : '';
    throw new WorkflowDefinitionError(path, `cannot read it (${code ?? (error as Error).message})${hint}`);
  }
  return parseJson(text, path);
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new WorkflowDefinitionError(path, `not JSON (${(error as Error).message})`);
  }
}

function substitute(value: unknown, path: string): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{(\w+)\}/g, (_, name: string) => {
      const arn = LOCAL_ARNS[name as SubstitutionName];
      if (!arn) throw new WorkflowDefinitionError(path, `unknown substitution \${${name}}`);
      return arn;
    });
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, path));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, path)]));
  }
  return value;
}

function asDefinition(value: unknown, path: string): StateMachineDefinition {
  const candidate = value as { StartAt?: unknown; States?: unknown } | null;
  if (typeof candidate?.StartAt !== 'string' || typeof candidate.States !== 'object' || !candidate.States) {
    throw new WorkflowDefinitionError(path, 'not a state machine definition (StartAt and States expected)');
  }
  return value as StateMachineDefinition;
}

type Resource = { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown> };
export type CfnTemplate = { Resources: Record<string, Resource> };
type Token = { Ref?: string; 'Fn::GetAtt'?: [string, string] };

const PSEUDO: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::Region': REGION,
  'AWS::AccountId': ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
};

/** The migration workflow's ASL from a synthesized template, with references turned into fake ARNs. */
export function aslFromTemplate(template: CfnTemplate, path = 'the template'): StateMachineDefinition {
  const machines = Object.entries(template?.Resources ?? {}).filter(
    ([, r]) => r.Type === 'AWS::StepFunctions::StateMachine',
  );
  const [, machine] =
    machines.find(([, r]) => String(r.Metadata?.['aws:cdk:path'] ?? '').includes('/Workflow/')) ??
    machines[0] ??
    [];
  if (!machine)
    throw new WorkflowDefinitionError(path, 'the template has no AWS::StepFunctions::StateMachine');
  const body = machine.Properties?.DefinitionString as
    | string
    | { 'Fn::Join'?: [string, Array<string | Token>] }
    | undefined;
  if (typeof body === 'string') return asDefinition(parseJson(body, path), path);
  const join = body?.['Fn::Join'];
  if (!join) {
    throw new WorkflowDefinitionError(
      path,
      "the state machine's DefinitionString is neither a string nor an Fn::Join: pass a template `cdk synth` wrote",
    );
  }
  const [separator, parts] = join;
  const text = parts.map((p) => (typeof p === 'string' ? p : tokenValue(p, template))).join(separator);
  return asDefinition(parseJson(text, path), path);
}

function tokenValue(token: Token, template: CfnTemplate): string {
  if (token.Ref && PSEUDO[token.Ref]) return PSEUDO[token.Ref];
  const id = token['Fn::GetAtt']?.[0] ?? token.Ref ?? 'unknown';
  // An activity's Ref is its ARN (the agents' tasks); a function is referenced by its Arn attribute.
  if (template.Resources[id]?.Type === 'AWS::StepFunctions::Activity') {
    return `arn:aws:states:${REGION}:${ACCOUNT}:activity:${id}`;
  }
  return `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${id}`;
}
