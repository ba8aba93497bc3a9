// ESLint for `npm run lint` (office-addin-lint picks this file up instead of its built-in config):
// the Office add-in rules and Prettier (the project's style, set in package.json: 140 columns).
import officeAddins from "eslint-plugin-office-addins";
import tsParser from "@typescript-eslint/parser";

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
  {
    // The Excel stand-in runs inside the browser page under test.
    files: ["test/pane/*.js"],
    languageOptions: { sourceType: "script", globals: { window: "readonly", setTimeout: "readonly", fetch: "readonly" } },
  },
  {
    // Node scripts and configs (CommonJS).
    files: ["scripts/**/*.js", "*.config.js"],
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
