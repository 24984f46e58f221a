/** Best-effort count of the reports in a message body that failed validation (for metrics only). */
export function reportsInBody(body: string): number {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return 0;
  }
  if (doc === null || typeof doc !== 'object') return 0;
  const { hypervisors, instances } = doc as { hypervisors?: unknown; instances?: unknown };
  return (
    (Array.isArray(hypervisors) ? hypervisors.length : 0) + (Array.isArray(instances) ? instances.length : 0)
  );
}
