/**
 * A heartbeat file for services without an HTTP port (sync, projector): touched after each look at
 * the stores that succeeds, so that a container health check can tell a live, connected service
 * from a stuck one by the file's age.
 */
import { writeFile } from 'node:fs/promises';

export function startHeartbeat(
  file: string | null,
  probe: () => Promise<unknown>,
  everyMs = 10_000,
): { stop(): void } {
  if (!file) return { stop: () => undefined };
  const beat = async () => {
    try {
      await probe();
      await writeFile(file, String(Date.now()));
    } catch {
      // no beat: the file ages and the health check says so
    }
  };
  void beat();
  const timer = setInterval(() => void beat(), everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
