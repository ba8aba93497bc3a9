/** The engine's face stays small: FirmaEngine has at most 25 public members (the surfaces need no more). */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

test("FirmaEngine has at most 25 public members, match() and matchEstimate() among them", () => {
  const file = path.join(__dirname, "../../src/engine/engine.ts");
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.ES2020, true);
  const publicMembers: string[] = [];
  source.forEachChild((node) => {
    if (!ts.isClassDeclaration(node) || node.name?.text !== "FirmaEngine") return;
    for (const m of node.members) {
      if (ts.isConstructorDeclaration(m) || !m.name) continue;
      const mods = ts.canHaveModifiers(m) ? (ts.getModifiers(m) ?? []) : [];
      if (mods.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
      if (ts.isPrivateIdentifier(m.name)) continue;
      publicMembers.push(m.name.getText(source));
    }
  });
  expect(publicMembers).toEqual(expect.arrayContaining(["match", "matchEstimate", "list", "prefetch"]));
  expect(publicMembers.length).toBeLessThanOrEqual(25);
});
