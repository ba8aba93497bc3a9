// ESLint for `npm run lint` (office-addin-lint picks this file up instead of its built-in config):
// the Office add-in rules and Prettier (the project's style, set in package.json: 140 columns).
import officeAddins from "eslint-plugin-office-addins";
import tsParser from "@typescript-eslint/parser";
import layers from "./scripts/layers.js";

// The layers (docs/architecture.md), one map for the lint and the architecture test: scripts/layers.js.
const { SRC_LAYERS, forbidden, OFFICE_FREE } = layers;
/** Office's globals: only the Office surfaces and their adapters may touch them. */
const OFFICE_GLOBALS = ["Office", "Excel", "CustomFunctions", "OfficeRuntime", "OfficeExtension"].map((name) => ({
  name,
  message: "Office globals belong in src/functions, src/taskpane and src/office (docs/architecture.md).",
}));

/** One config block per layer: its forbidden imports (relative paths climbing into those folders), and test/, bench/, sandbox/. */
const layerRules = SRC_LAYERS.map((layer) => ({
  files: [`src/${layer}/**/*.ts`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            regex: `^(\\.\\./)+(${forbidden(layer).join("|")})(/|$)`,
            message: `src/${layer} must not import from a higher layer or another surface (docs/architecture.md).`,
          },
          {
            regex: "^(\\.\\./)+(test|bench|sandbox|scripts)(/|$)",
            message: "The product does not import tests, the bench, the sandbox or scripts.",
          },
        ],
      },
    ],
    ...(OFFICE_FREE.includes(layer) ? { "no-restricted-globals": ["error", ...OFFICE_GLOBALS] } : {}),
  },
}));

/** The sandbox is a service of its own: it may share the API's types, nothing of the add-in above them. */
const sandboxRules = {
  files: ["sandbox/**/*.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            regex: `^(\\.\\./)+(src/(${forbidden("sandbox").join("|")})|test|bench)(/|$)`,
            message: "The sandbox plays the service: it may use src/api's types only (docs/architecture.md).",
          },
        ],
      },
    ],
    "no-restricted-globals": ["error", ...OFFICE_GLOBALS],
  },
};

export default [
  { ignores: ["dist/**", "build/**", "coverage/**", "node_modules/**"] },
  ...officeAddins.configs.recommended,
  {
    plugins: { "office-addins": officeAddins },
    languageOptions: { parser: tsParser },
  },
  {
    // The TypeScript compiler already checks every name (`npm run typecheck`), with the DOM, Office and
    // build-time globals declared; ESLint's no-undef knows none of them.
    files: ["**/*.ts"],
    rules: {
      "no-undef": "off",
      // `_` names say "deliberately unused" (e.g. `for await (const _ of pages)`).
      "@typescript-eslint/no-unused-vars": ["error", { varsIgnorePattern: "^_", argsIgnorePattern: "^_" }],
    },
  },
  ...layerRules,
  sandboxRules,
  {
    // Node scripts and configs (CommonJS).
    files: ["scripts/**/*.js", "*.config.js", "test/support/*.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: {
        process: "readonly",
        console: "readonly",
        __dirname: "readonly",
        Buffer: "readonly",
      },
    },
  },
];
