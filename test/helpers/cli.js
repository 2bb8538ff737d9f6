// Runs the real CLI as a user would, with an argument array.
import { execa } from 'execa';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cliPath = path.join(root, 'cli', 'nodebench.js');

export function nodebench(args, options = {}) {
  return execa(process.execPath, [cliPath, ...args], { reject: false, stdin: 'ignore', cwd: root, ...options, env: { NO_COLOR: '1', ...options.env } });
}
