/**
 * The layers of src/ (docs/architecture.md): the one map `npm run lint` (eslint.config.mjs) enforces
 * and test/architecture/layers.test.ts checks the import graph against. Each folder may import only
 * the layers below it:
 *   src/api → src/engine → src/shared → src/office (Office adapters) → src/functions, src/taskpane
 *                                     ↘ src/cli, src/server
 * and sandbox/ plays the service: it may use src/api's types only.
 */

/** What each layer may import besides itself. */
const MAY_IMPORT = {
  api: [],
  engine: ["api"],
  shared: ["api", "engine"],
  office: ["api", "engine", "shared"],
  functions: ["api", "engine", "shared", "office"],
  taskpane: ["api", "engine", "shared", "office"],
  cli: ["api", "engine", "shared"],
  server: ["api", "engine", "shared"],
  sandbox: ["api"],
};

/** The folders of src/, each a layer. */
const SRC_LAYERS = Object.keys(MAY_IMPORT).filter((l) => l !== "sandbox");

/** The folders of src/ that `layer` must not import: the layers above it and the surfaces beside it. */
function forbidden(layer) {
  return SRC_LAYERS.filter((l) => l !== layer && !MAY_IMPORT[layer].includes(l));
}

/** The layers that must not touch Office's globals (only the Office surfaces and their adapters may). */
const OFFICE_FREE = ["api", "engine", "shared", "cli", "server"];

module.exports = { MAY_IMPORT, SRC_LAYERS, forbidden, OFFICE_FREE };
