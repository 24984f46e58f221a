/** Aborts on SIGINT or SIGTERM, so a long-running command can finish what it is doing; `release` unhooks it. */
export function stopOnSignals() {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    signal: controller.signal,
    release: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
