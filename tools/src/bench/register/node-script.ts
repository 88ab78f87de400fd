/** A built Node script run in a process of its own, its output collected for the caller. */
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from '../../scale-out/processes';

export interface NodeScriptRun {
  /** The running process (its pid for whoever watches it). */
  child: ChildProcess;
  /** Its output once it has ended successfully; rejects, with what it printed, on any other exit. */
  output: Promise<{ stdout: string; stderr: string }>;
}

export function runNodeScript(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; what: string },
): NodeScriptRun {
  const child = spawn(process.execPath, [...args], {
    cwd: ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const output = new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${options.what} exited with ${code}:\n${stderr}${stdout}`));
    });
  });
  return { child, output };
}
