/** Help for the options every command that runs the local migration workflow takes (detect, migrate, serve). */
export const SETTINGS_HELP = 'workflow settings as JSON (deadline_factor, on_deadline, drain_force, ...)';
export const TEMPLATE_HELP =
  'a synthesized template (cdk.out/Placid.template.json) instead of the built-in definition';
export const ENDPOINTS_HELP =
  'JSON with "openstack", "kubernetes" and "consul" credentials: migrate on the real clouds with the real drivers (default: simulated drivers over the stored reports)';

/** The files those options name. */
export interface WorkflowFiles {
  /** Real drivers from this endpoints file; simulated over the stored reports when absent. */
  endpoints?: string;
  /** Workflow settings JSON. */
  settings?: string;
  /** A synthesized template instead of the definition the build emitted. */
  template?: string;
}
