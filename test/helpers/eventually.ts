/**
 * Polls `check` until it holds, for at most `ms` (a bound on waiting, not a timing assertion), and
 * throws naming `what` when it never does.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = 'the awaited state',
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
