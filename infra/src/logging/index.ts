/**
 * The adapters' log: JSON lines through pino like the services' (same LOG_LEVEL), on stderr, one child
 * per component. Adapters only log what they cannot hand back to a caller (a background subscription
 * that stopped, a retried handler); messages carry no payloads, so no secret or personal data.
 */
import pino, { type Logger } from 'pino';

let root: Logger | null = null;

export function adapterLogger(component: string): Logger {
  // Synchronous on stderr: a line written just before the process ends is not lost.
  root ??= pino({ level: process.env.LOG_LEVEL ?? 'info' }, pino.destination({ dest: 2, sync: true }));
  return root.child({ component });
}

export type { Logger };

/**
 * The default report of a background handler that failed and will be retried (an adapter's
 * subscription or consumer): its identifying fields, and of the error its message only.
 */
export function logRetriedHandler(
  log: Logger,
  message: string,
): (info: { attempt: number; retryInMs: number; error: unknown } & Record<string, unknown>) => void {
  return ({ error, ...fields }) =>
    log.warn({ ...fields, error: error instanceof Error ? error.message : String(error) }, message);
}
