// Bundles the TypeScript unit tests with esbuild (Node 20 cannot strip types)
// and runs them with node's own test runner.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', 'node_modules', '.unit-tests');
rmSync(out, { recursive: true, force: true });
const entries = readdirSync(here).filter((f) => f.endsWith('.test.ts')).map((f) => path.join(here, f));
await build({ entryPoints: entries, outdir: out, bundle: true, platform: 'node', format: 'esm', outExtension: { '.js': '.mjs' }, logLevel: 'warning' });
const files = readdirSync(out).filter((f) => f.endsWith('.mjs')).map((f) => path.join(out, f));
const r = spawnSync(process.execPath, ['--test', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
