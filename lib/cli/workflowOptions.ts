/** Help for the options every command that runs the local migration workflow takes (detect, migrate, serve). */
export const SETTINGS_HELP = 'workflow settings as JSON (deadline_factor, on_deadline, drain_force, ...)';
export const TEMPLATE_HELP =
  'a synthesized template (cdk.out/Placid.template.json) instead of the built-in definition';
