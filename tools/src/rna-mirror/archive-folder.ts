/**
 * The files a mirror serves: a folder of register-named files (`OpenData_Aiuti_YYYY_MM[_NNN]`
 * as .xml and/or .zip). A missing representation is derived once into a cache folder (zip of
 * an xml, xml out of a zip), so every answer has an honest Content-Length.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import unzipper from 'unzipper';
import yazl from 'yazl';
import { compareNewestFirst, parseRegisterFileName, type RegisterFileName } from '@rna/infra/register';
import { hashString } from '../generator/random';

export interface ServedFile extends RegisterFileName {
  nid: string;
  xmlPath: string | null;
  zipPath: string | null;
  /** The source's modification time: Last-Modified of both representations. */
  mtimeMs: number;
  size: number;
}

export interface RepresentationHeaders {
  size: number;
  etag: string;
  lastModified: Date;
}

export interface Representation extends RepresentationHeaders {
  path: string;
}

function headersOf(file: ServedFile, ext: string, size: number): RepresentationHeaders {
  const tag = hashString(`${version(file)}:${ext}:${size}`).toString(16);
  return {
    size,
    etag: `"${tag}-${Math.floor(file.mtimeMs).toString(16)}"`,
    lastModified: new Date(Math.floor(file.mtimeMs / 1000) * 1000),
  };
}

export const nidOf = (name: string): string => String(100000 + (hashString(`nid:${name}`) % 900000));

/** Scans the folder: one entry per register file, newest first. */
export async function scanFolder(dir: string): Promise<ServedFile[]> {
  const byName = new Map<string, ServedFile>();
  for (const entry of await readdir(dir)) {
    const parsed = parseRegisterFileName(entry);
    const ext = path.extname(entry).toLowerCase();
    if (!parsed || (ext !== '.xml' && ext !== '.zip')) continue;
    const info = await stat(path.join(dir, entry));
    const file = byName.get(parsed.name) ?? {
      ...parsed,
      nid: nidOf(parsed.name),
      xmlPath: null,
      zipPath: null,
      mtimeMs: 0,
      size: 0,
    };
    if (ext === '.xml') file.xmlPath = path.join(dir, entry);
    else file.zipPath = path.join(dir, entry);
    // The newest source decides when the file last changed.
    if (info.mtimeMs >= file.mtimeMs) {
      file.mtimeMs = info.mtimeMs;
      file.size = info.size;
    }
    byName.set(parsed.name, file);
  }
  return [...byName.values()].sort(compareNewestFirst);
}

const version = (file: ServedFile) => `${file.name}-${Math.floor(file.mtimeMs)}-${file.size}`;

export class RepresentationCache {
  private readonly pending = new Map<string, Promise<string>>();
  constructor(private readonly cacheDir: string) {}

  private derive(key: string, make: (target: string) => Promise<void>): Promise<string> {
    const target = path.join(this.cacheDir, key);
    const existing = this.pending.get(key);
    if (existing) return existing;
    const job = (async () => {
      try {
        await stat(target);
        return target;
      } catch {
        await mkdir(this.cacheDir, { recursive: true });
        const temp = `${target}.tmp`;
        await make(temp);
        await rename(temp, target);
        return target;
      }
    })();
    this.pending.set(key, job);
    job.catch(() => this.pending.delete(key));
    return job;
  }

  async xml(file: ServedFile): Promise<Representation> {
    const source = file.xmlPath;
    const filePath =
      source ??
      (await this.derive(`${version(file)}.xml`, async (temp) => {
        const entry = createReadStream(file.zipPath as string).pipe(unzipper.ParseOne(/\.xml$/i));
        await pipeline(entry, createWriteStream(temp));
      }));
    return this.describe(file, filePath, 'xml');
  }

  async zip(file: ServedFile): Promise<Representation> {
    const filePath =
      file.zipPath ??
      (await this.derive(`${version(file)}.zip`, async (temp) => {
        const archive = new yazl.ZipFile();
        archive.addFile(file.xmlPath as string, `OpenData_Aiuti_${file.name}.xml`);
        archive.end();
        await pipeline(archive.outputStream, createWriteStream(temp));
      }));
    return this.describe(file, filePath, 'zip');
  }

  /**
   * The xml representation's headers without deriving it: a HEAD (every listing does one per file)
   * must not unzip a whole month. The size comes from the zip's directory; the same headers follow.
   */
  async xmlHeaders(file: ServedFile): Promise<RepresentationHeaders> {
    if (file.xmlPath || !file.zipPath) return this.xml(file);
    const directory = await unzipper.Open.file(file.zipPath);
    const entry = directory.files.find((f) => /\.xml$/i.test(f.path));
    if (!entry) return this.xml(file); // deriving reports the broken zip
    return headersOf(file, 'xml', entry.uncompressedSize);
  }

  private async describe(file: ServedFile, filePath: string, ext: string): Promise<Representation> {
    const info = await stat(filePath);
    return { path: filePath, ...headersOf(file, ext, info.size) };
  }
}
