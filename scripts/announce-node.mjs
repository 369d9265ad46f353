// Run by `npm install` before it installs (the root's "preinstall"): on an older Node.js, one
// plain line instead of npm's engine warnings, which .npmrc keeps to errors (CONTRIBUTING.md).

/** The line to print for this Node.js version, or null when it is the project's own. */
export function describeInstallNode(version, wanted = 24) {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  if (major >= wanted) return null;
  return (
    `Sticky runs on Node.js ${wanted}; this is ${version}. npm install puts Node.js ${wanted} into ` +
    `node_modules/.bin (the "node" package), and every npm script runs on it: nothing else to do.`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const line = describeInstallNode(process.version);
  if (line) console.log(line);
}
