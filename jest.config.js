/** Jest: one config, TypeScript through ts-jest (isolatedModules for speed; `npm run typecheck` does the types). */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.[tj]sx?$": ["ts-jest", { tsconfig: { module: "commonjs", allowJs: true, isolatedModules: true } }],
  },
  // office-addin-mock's dependencies ship as ESM: let ts-jest transform them;
  // Fastify's cookie and content-disposition too (Node 20.19+ requires ESM natively; Jest 30 on Node 20 does not).
  transformIgnorePatterns: [
    "/node_modules/(?!(office-addin-mock|office-addin-manifest|@microsoft/office-js|(?:(?:@[^/]+/)?[^/]+/node_modules/)?(?:cookie|content-disposition))/)",
  ],
  testTimeout: 30000,
};
