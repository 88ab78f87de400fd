/**
 * Runs a TypeScript file in a separate Node process (transpiled on the fly by @swc/core), so tests can
 * exercise what happens when ANOTHER PROCESS uses the same files: the real standalone situation.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

const REGISTER_TS = `
const swc = require('@swc/core');
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformFileSync(filename, {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
require(process.argv[1]);
`;

export function spawnTsChild(script: string, args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['-e', REGISTER_TS, path.resolve(__dirname, script), ...args], {
    stdio: 'pipe',
    cwd: path.resolve(__dirname, '../../../..'),
  });
}

/**
 * Resolves with the first stdout line that satisfies the predicate; rejects if the child's output ends first.
 * 'close' (not 'exit'): a child may exit before its last stdout chunk has reached us.
 */
export function waitForLine(child: ChildProcessWithoutNullStreams, predicate: (line: string) => boolean) {
  return new Promise<string>((resolve, reject) => {
    let buffer = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split('\n')) if (predicate(line)) resolve(line);
    });
    child.on('close', (code) =>
      reject(new Error(`child exited with ${code} before the expected output: ${stderr}`)),
    );
  });
}

export function waitForExit(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.on('exit', (code) => resolve(code));
  });
}
