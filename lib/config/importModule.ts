/**
 * `import()` for modules outside the bundle: plug-ins (by file URL), tsx, ES-module-only packages.
 * The CLI bundle runs from V8's code cache (bin/compileCache.cjs), and on Node 20 code taken from
 * that cache cannot call `import()` itself; the loader hands the bundle a Node-compiled `import`
 * as `__placidImport`. From source (tests, tsx) there is none, and this is plain `import()`.
 */
declare const __placidImport: ((specifier: string) => Promise<unknown>) | undefined;

export function importModule<T = Record<string, unknown>>(specifier: string): Promise<T> {
  return (typeof __placidImport === 'function' ? __placidImport(specifier) : import(specifier)) as Promise<T>;
}
