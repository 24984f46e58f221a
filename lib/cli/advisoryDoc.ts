/** True when a request document asks for an advisory answer (`"advisory": true`): cheap to ask before loading anything. */
export function isAdvisoryDoc(doc: unknown): boolean {
  return typeof doc === 'object' && doc !== null && (doc as { advisory?: unknown }).advisory === true;
}
