/**
 * A self-signed certificate for 127.0.0.1 and localhost, made by the openssl command (Debian's; no npm
 * package needed) in a folder of its own, for tests that serve HTTPS and HTTP/2. The browser's tests
 * accept it with --ignore-certificate-errors; node clients with rejectUnauthorized: false.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { execFileSync } from "child_process";

export interface TestCertificate {
  dir: string;
  certFile: string;
  keyFile: string;
  cert: Buffer;
  key: Buffer;
  remove(): void;
}

export function selfSignedCertificate(): TestCertificate {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "firma-tls-"));
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  return {
    dir,
    certFile,
    keyFile,
    cert: fs.readFileSync(certFile),
    key: fs.readFileSync(keyFile),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
