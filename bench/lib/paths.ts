import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `../shared` beside the repository: read, never copied. */
export const sharedDir = path.resolve(repoRoot, '..', 'shared');

export const benchDir = path.join(repoRoot, 'bench');
export const resultsDir = path.join(benchDir, 'results');
export const webDistDir = path.join(repoRoot, 'apps', 'web', 'dist');
export const gifsDir = path.join(sharedDir, 'data', 'gifs');
export const metadataDir = path.join(sharedDir, 'data', 'metadata');
