/** Register port: the RNA open-data archive (list, download as a stream) and its live look-up. */
import type { Readable, Writable } from 'node:stream';

export interface RegisterFileInfo {
  /** Display name without prefix and extension: 2024_02 or 2024_02_002. */
  name: string;
  /** The register's file name, e.g. OpenData_Aiuti_2024_02_002.xml */
  fileName: string;
  /** The register's node id used by the zip flow; null when the listing gave none. */
  nid: string | null;
  /** Formats offered by the listing. */
  formats: ('xml' | 'zip')[];
  year: number;
  month: number;
  part: number;
  /** Change signals from a HEAD of the plain XML (null when the register gave none). */
  etag: string | null;
  lastModified: string | null;
  size: number | null;
}

export interface DownloadProgress {
  receivedBytes: number;
  /** Content-Length of what is transferred (the zip in the zip flow), null if unknown. */
  totalBytes: number | null;
}

export interface DownloadOptions {
  /** Returns 'unchanged' when the register answers 304 to these validators. */
  ifNoneMatch?: string | null;
  ifModifiedSince?: string | null;
  onProgress?: (progress: DownloadProgress) => void;
  /** Prefer the zip flow when the listing offers it (default true). */
  preferZip?: boolean;
  /**
   * Asked once the transfer's format is known, for a stream that receives the transferred bytes
   * as they come (the zip itself, or the XML): the register's original is kept from the same transfer.
   */
  keepOriginal?: (transferred: 'zip' | 'xml') => Writable;
}

export type DownloadResult =
  | { status: 'unchanged' }
  | {
      status: 'ok';
      /** The XML bytes, already unzipped; errors of the transfer surface on this stream. */
      xml: Readable;
      totalBytes: number | null;
      format: 'xml' | 'zip';
    };

export interface LiveAidRow {
  cor: string;
  car: string;
  ce: string;
  titolo: string;
  tipo: string;
  progetto: string;
  /** DD/MM/YYYY */
  data: string;
  beneficiario: string;
  cf: string;
  regione: string;
  /** "€ 1.234,56" */
  elemento_aiuto: string;
  id_concessione: string;
}

export interface RegisterClient {
  /** Files of the listing page with their HEAD metadata; G007 when the register is unavailable. */
  listFiles(): Promise<RegisterFileInfo[]>;
  download(file: RegisterFileInfo, options?: DownloadOptions): Promise<DownloadResult>;
}
