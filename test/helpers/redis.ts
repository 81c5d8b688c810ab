// Redis for tests: when ATELIER_TEST_REDIS_URL points at a server (CI sets redis://127.0.0.1:6379),
// the multi-instance suites run; without it they report as skipped with the reason.
export const redisUrl: string | undefined = process.env.ATELIER_TEST_REDIS_URL?.trim() || undefined;

export const REDIS_SKIP_REASON =
  'Redis tests skipped: set ATELIER_TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) to run them';
