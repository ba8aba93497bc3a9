/**
 * The slow project's globalSetup: the add-in builds its tests load, made once per run (and kept
 * across runs while the sources do not change: test/support/builds.js).
 */
const { ensureAllBuilds } = require("./builds");

module.exports = async function globalSetup() {
  const b = await ensureAllBuilds();
  if (b.ms > 1000) process.stdout.write(`\nfirma: add-in builds ready in ${(b.ms / 1000).toFixed(1)} s (local, dev, deploy)\n`);
};
