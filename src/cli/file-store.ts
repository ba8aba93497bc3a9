/**
 * The engine's KeyValueStore on disk, for the CLI: one JSON file, read once, written whole
 * (to a temporary file, then renamed) so that an interrupted run never leaves half a cache.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "fs";
import { homedir } from "os";
import { dirname, join } from "path";
import type { KeyValueStore } from "../engine/store";

/** `$XDG_CACHE_HOME/firma`, else `~/.cache/firma`. */
export function defaultCacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "firma");
}

export class FileStore implements KeyValueStore {
  private readonly data: Record<string, string>;

  constructor(readonly file: string) {
    let data: Record<string, string> = {};
    try {
      const parsed = JSON.parse(readFileSync(file, "utf8"));
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) data = parsed;
    } catch {
      /* no cache yet, or an unreadable one: start empty */
    }
    this.data = data;
  }

  async getItem(key: string): Promise<string | null> {
    return Object.prototype.hasOwnProperty.call(this.data, key) ? this.data[key] : null;
  }

  async setItem(key: string, value: string): Promise<void> {
    this.data[key] = value;
    this.write();
  }

  async removeItem(key: string): Promise<void> {
    delete this.data[key];
    this.write();
  }

  private write(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.file);
  }
}
