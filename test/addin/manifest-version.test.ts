/**
 * The manifest's <Version> rises with every build of a changed add-in (the Version element; AppSource's
 * certification policy 1120.1): package.json's three parts and a build number — FIRMA_BUILD_NUMBER, else
 * the checkout's commit count — and a build for a real address that could reuse a published version stops.
 */
const { manifestVersion, DeploymentError } = require("../../scripts/deployment") as {
  manifestVersion(version: string, env: Record<string, string | undefined>, d: { addinUrl: string }, git?: Git): string;
  DeploymentError: new (m: string) => Error;
};

interface Git {
  commits(): number | null;
  dirty(): boolean;
}
const REAL = { addinUrl: "https://addin.firma-mea.ro/" };
const LOCAL = { addinUrl: "https://localhost:3000/" };
const git = (commits: number | null, dirty = false): Git => ({ commits: () => commits, dirty: () => dirty });

test("FIRMA_BUILD_NUMBER is the fourth part, whatever the checkout", () => {
  expect(manifestVersion("0.1.0", { FIRMA_BUILD_NUMBER: "412" }, REAL, git(null, true))).toBe("0.1.0.412");
  expect(manifestVersion("2.3.4-beta.1", { FIRMA_BUILD_NUMBER: "0" }, REAL, git(9))).toBe("2.3.4.0");
});

test("a build number past AppSource's 9999, or not a number, stops the build; so does a commit count past it", () => {
  expect(() => manifestVersion("0.1.0", {}, REAL, git(10_000))).toThrow(/10000 commits.*FIRMA_BUILD_NUMBER/);
  expect(manifestVersion("0.1.0", { FIRMA_BUILD_NUMBER: "9999" }, REAL, git(10_000))).toBe("0.1.0.9999");
  for (const bad of ["10000", "100000", "-1", "1.5", "abc"]) {
    expect(() => manifestVersion("0.1.0", { FIRMA_BUILD_NUMBER: bad }, REAL, git(3))).toThrow(DeploymentError);
  }
});

test("without it, the commit count: each commit raises the version", () => {
  expect(manifestVersion("0.1.0", {}, REAL, git(1041))).toBe("0.1.0.1041");
  expect(manifestVersion("0.1.0", {}, REAL, git(1042))).toBe("0.1.0.1042");
});

test("a build for a real address from uncommitted changes, or outside git, stops: its version may already be published", () => {
  expect(() => manifestVersion("0.1.0", {}, REAL, git(1041, true))).toThrow(/uncommitted changes.*FIRMA_BUILD_NUMBER/);
  expect(() => manifestVersion("0.1.0", {}, REAL, git(null))).toThrow(/not a git checkout/);
});

test("a build for this computer (development, the tests' local build) is never stopped", () => {
  expect(manifestVersion("0.1.0", {}, LOCAL, git(1041, true))).toBe("0.1.0.1041");
  expect(manifestVersion("0.1.0", {}, LOCAL, git(null))).toBe("0.1.0.0");
});

test("package.json's version makes a <Version> AppSource's submission form takes: the first part from 1 to 9999, the others up to 9999", () => {
  const { version } = require("../../package.json") as { version: string };
  const parts = manifestVersion(version, { FIRMA_BUILD_NUMBER: "9999" }, REAL, git(1)).split(".").map(Number);
  expect(parts).toHaveLength(4);
  expect(parts[0]).toBeGreaterThanOrEqual(1);
  for (const p of parts) expect(p).toBeLessThanOrEqual(9999);
});
