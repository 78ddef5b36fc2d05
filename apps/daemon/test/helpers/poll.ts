/** Polls until `check` returns a truthy value (or stops throwing); no timed assertions, just a generous cap. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  message: string,
  { timeoutMs = 20_000, intervalMs = 25 } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out waiting for ${message}${why}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
