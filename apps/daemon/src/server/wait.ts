/** Resolves with the promise's value, or with `timedOut` when `ms` passes first (the timer is cleared). */
export async function withTimeout<T, U>(promise: Promise<T>, ms: number, timedOut: U): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<U>((resolve) => (timer = setTimeout(() => resolve(timedOut), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
