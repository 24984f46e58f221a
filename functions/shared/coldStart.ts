/**
 * The one cold-start pattern of Placid's handlers: what a handler needs (settings, clients, the
 * scheduler, secrets) is built on its first invocation, kept for the container's life, and
 * forgotten when building it failed, so the next invocation builds it again.
 *
 * Why this one rather than building at module load (or with a top-level await):
 * - a bad setting or an unreadable secret fails an invocation inside the shared middleware: logged
 *   by Powertools with the request and correlation ids, counted by the function-error alarm, named
 *   by its error class; a module-load failure is an init error Lambda reports with none of that;
 * - a transient failure (Secrets Manager throttled) heals on the next invocation;
 * - it serves synchronous and asynchronous set-up alike, and importing a handler has no side
 *   effects (tests import it before or without its environment).
 * The price, the first invocation paying for the set-up instead of the init phase, is milliseconds
 * here: parsing settings and constructing clients, which connect on first use.
 * The collector's set-up is this pattern with a maximum age (reconnectingAfter, in
 * lib/drivers/rotation.ts), so that rotated secrets are read again.
 */
export function lazily<T>(build: () => T | Promise<T>): () => Promise<T> {
  let built: Promise<T> | undefined;
  return () => {
    built ??= Promise.resolve()
      .then(build)
      .catch((error: unknown) => {
        built = undefined;
        throw error;
      });
    return built;
  };
}
