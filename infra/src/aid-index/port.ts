/** Aid index port: the searchable read model of the register's aid components. */
import type { AidRecord } from '@rna/domain';
import type { PackedTexts } from '../packed-texts/packed-texts';

export interface AidSearch {
  taxCodes: string[];
  /** YYYY-MM-DD inclusive lower bound on dataConcessione. */
  dateFrom?: string;
  /** Only components whose procedure is de minimis (codProcedimento 1). */
  deMinimisOnly?: boolean;
  limit?: number;
}

export interface SourceFileStats {
  sourceFile: string;
  count: number;
}

/** A new index filled beside the one in service (projection rebuilds), then put in its place. */
export interface AidIndexRebuild {
  /** Where the rebuild writes; searches of the index in service do not see it until complete(). */
  target: AidIndex;
  /** Puts the filled index in service in one step and drops the old one. */
  complete(): Promise<void>;
  /** Drops what was filled; the index in service stays as it was. */
  abandon(): Promise<void>;
}

export interface AidIndex {
  /**
   * Idempotent: keyed by idComponenteAiuto, the last write wins, except that an aid written by an
   * ordered import is never replaced by an older import's copy (import-order.ts). Reports which
   * records were new or changed in content (a different importId alone is not a change), for
   * variation alerts.
   */
  upsert(records: AidRecord[]): Promise<{ changed: number; changedTaxCodes: string[] }>;
  /**
   * Optional fast path of upsert for the embedded index: each aid as its AidRecorded message's text
   * (as published on the `aids` topic), packed in one buffer (packed-texts.ts), which is handed to
   * the index's writer thread without a copy — the caller must not use it afterwards.
   * Calls are applied in the order they are made, also when one is made before the previous one
   * settled (the projection overlaps two, so that the index never waits for its caller).
   */
  upsertEncoded?(messages: PackedTexts): Promise<{ changed: number; changedTaxCodes: string[] }>;
  /** Removes the given ids; returns the tax codes of those that existed. */
  withdraw(ids: string[]): Promise<{ count: number; taxCodes: string[] }>;
  /**
   * Removes every aid of a source file; with keepImportId, only those older imports wrote when it is
   * ordered (a newer import's aids stay), else those any other import wrote.
   */
  withdrawBySourceFile(
    sourceFile: string,
    keepImportId?: string,
  ): Promise<{ count: number; taxCodes: string[] }>;
  /** Newest grant date first (ties: by id, descending). */
  search(query: AidSearch): Promise<AidRecord[]>;
  get(idComponenteAiuto: string): Promise<AidRecord | null>;
  count(): Promise<number>;
  statsBySourceFile(): Promise<SourceFileStats[]>;
  /** Removes everything. */
  clear(): Promise<void>;
  /**
   * Starts a rebuild. Elasticsearch fills a new index and swaps the alias when complete, so searches
   * never see an empty or partial index; the embedded index is rebuilt in place (the portal is
   * stopped while it is: the data directory's lock says so).
   */
  beginRebuild(): Promise<AidIndexRebuild>;
  close(): Promise<void>;
}
