// The native CLI (build/release/sqrtdk), built with the native-release preset when it is missing.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './browser.mjs';

const CLI = join(REPO, 'build/release/sqrtdk');

export function runCli(args) {
  if (!existsSync(CLI)) {
    execFileSync('cmake', ['--preset', 'native-release'], { cwd: REPO, stdio: 'inherit' });
    execFileSync('cmake', ['--build', '--preset', 'native-release', '-j2', '--target', 'sqrtdk'], { cwd: REPO, stdio: 'inherit' });
  }
  return execFileSync(CLI, args, { encoding: 'utf8' });
}
