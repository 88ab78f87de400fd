/**
 * Aid index on Elasticsearch 8 (@elastic/elasticsearch).
 *
 * - Explicit, strict mapping: tax code as keyword (plus a normalised `taxCodeKey`), grant date as
 *   `date`, amounts as `long` cents, the numeric id as `long` for the tie-break sort, texts as keyword/text.
 * - The adapter reads and writes through an ALIAS; the concrete index is `${alias}-<timestamp>`.
 *   A rebuild fills a new concrete index beside the one in service and moves the alias to it in one
 *   _aliases call once complete, so searches never see an empty or partial index; clear() swaps in
 *   an empty one the same way.
 * - Withdrawals of a whole file are one delete-by-query (after a composite aggregation has listed
 *   the tax codes they touch, for variation alerts), not a read of every document.
 * - Upserts: mget the current documents, then one bulk request: `create` for new ids, `index` with
 *   if_seq_no/if_primary_term for known ones. A version conflict (another writer got there first) sends
 *   the record round again, so exactly one writer reports a change. Items rejected with 429 (queue
 *   full) are retried with back-off; other item errors fail the call, naming the aid.
 * - Writes use refresh=wait_for, so a search right after an upsert sees it (the port's readers expect it).
 */
import { Client, type estypes } from '@elastic/elasticsearch';
import {
  assertStorableAid,
  isOlderImport,
  isOrderedImportId,
  normalizeTaxCode,
  type AidRecord,
} from '@rna/domain';
import { RecordRejectedError } from '../dead-letters';
import type { AidIndex, AidIndexRebuild, AidSearch, SourceFileStats } from './port';

export interface ElasticsearchAidIndexOptions {
  /**
   * Either the cluster's node URLs (comma-separated: every node, so that the client goes on through
   * the others while one restarts) or a ready client (tests pass one wired to @elastic/elasticsearch-mock).
   */
  node?: string;
  client?: Client;
  /** Alias the portal reads and writes (default `rna-aids`). */
  alias?: string;
  /** Attempts for items rejected with 429 before giving up (default 5), and the first back-off. */
  maxRejectedRetries?: number;
  rejectedBackoffMs?: number;
  refresh?: 'wait_for' | boolean;
  /** Reads and writes this concrete index, with no alias of its own (the target of a rebuild). */
  concreteIndex?: string;
}

interface StoredAid extends AidRecord {
  taxCodeKey: string;
  idSort: number;
}

const TEXT_FIELDS = [
  'cor',
  'car',
  'titoloMisura',
  'desTipoMisura',
  'soggettoConcedente',
  'titoloProgetto',
  'cup',
  'denominazioneBeneficiario',
  'desTipoBeneficiario',
  'regioneBeneficiario',
  'desProcedimento',
  'codRegolamento',
  'desRegolamento',
  'codObiettivo',
  'desObiettivo',
  'settoreAttivita',
] as const;

export const AID_MAPPING: estypes.MappingTypeMapping = {
  dynamic: 'strict',
  properties: {
    idComponenteAiuto: { type: 'keyword' },
    idSort: { type: 'long' },
    codiceFiscaleBeneficiario: { type: 'keyword' },
    taxCodeKey: { type: 'keyword' },
    dataConcessione: { type: 'date', format: 'strict_date' },
    codProcedimento: { type: 'keyword' },
    elementoDiAiutoCents: { type: 'long' },
    importoNominaleCents: { type: 'long' },
    sourceFile: { type: 'keyword' },
    importId: { type: 'keyword' },
    titoloMisura: { type: 'text', fields: { raw: { type: 'keyword', ignore_above: 512 } } },
    titoloProgetto: { type: 'text', fields: { raw: { type: 'keyword', ignore_above: 512 } } },
    denominazioneBeneficiario: { type: 'text', fields: { raw: { type: 'keyword', ignore_above: 512 } } },
    soggettoConcedente: { type: 'text', fields: { raw: { type: 'keyword', ignore_above: 512 } } },
    ...Object.fromEntries(
      TEXT_FIELDS.filter(
        (f) =>
          !['titoloMisura', 'titoloProgetto', 'denominazioneBeneficiario', 'soggettoConcedente'].includes(f),
      ).map((f) => [f, { type: 'keyword', ignore_above: 1024 }]),
    ),
  },
};

/** The domain's validation (the numeric id is also this index's tie-break sort field). */
export const validateAid = assertStorableAid;

export function toStoredAid(record: AidRecord): StoredAid {
  return {
    ...record,
    taxCodeKey: normalizeTaxCode(record.codiceFiscaleBeneficiario),
    idSort: Number(record.idComponenteAiuto),
  };
}

export function fromStoredAid(stored: StoredAid): AidRecord {
  const { taxCodeKey: _key, idSort: _sort, ...record } = stored;
  void _key;
  void _sort;
  return record;
}

/** Same aid content: every field equal except importId. */
export function sameContent(stored: AidRecord, record: AidRecord): boolean {
  const a = stored as unknown as Record<string, unknown>;
  const b = record as unknown as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  keys.delete('importId');
  return [...keys].every((key) => Object.is(a[key], b[key]));
}

export function buildSearchQuery(query: AidSearch): estypes.QueryDslQueryContainer {
  const filter: estypes.QueryDslQueryContainer[] = [
    { terms: { taxCodeKey: query.taxCodes.map(normalizeTaxCode) } },
  ];
  if (query.dateFrom) filter.push({ range: { dataConcessione: { gte: query.dateFrom } } });
  // the domain's rule (isDeMinimisProcedure): procedure code 1, or the description in any case
  if (query.deMinimisOnly)
    filter.push({
      bool: {
        should: [
          { term: { codProcedimento: '1' } },
          { term: { desProcedimento: { value: 'De Minimis', case_insensitive: true } } },
        ],
        minimum_should_match: 1,
      },
    });
  return { bool: { filter } };
}

export const SEARCH_SORT: estypes.Sort = [{ dataConcessione: 'desc' }, { idSort: 'desc' }];

const PAGE = 1000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const uniqueSorted = (values: string[]) => [...new Set(values)].sort();

type BulkOperation =
  | { create: { _index: string; _id: string } }
  | { index: { _index: string; _id: string; if_seq_no: number; if_primary_term: number } };

export class ElasticsearchAidIndex implements AidIndex {
  private readonly client: Client;
  private readonly alias: string;
  /** per source file, its last completed import or withdrawal (a small index beside the aids) */
  private readonly settledIndex: string;
  private ready: Promise<void> | null = null;

  constructor(private readonly options: ElasticsearchAidIndexOptions) {
    if (!options.client && !options.node)
      throw new Error('Elasticsearch aid index needs a node URL or a client');
    this.client =
      options.client ??
      new Client({ nodes: elasticsearchNodes(options.node!), maxRetries: 3, requestTimeout: 30_000 });
    this.alias = options.concreteIndex ?? options.alias ?? 'rna-aids';
    this.settledIndex = `${this.alias}-settled-imports`;
    if (options.concreteIndex) this.ready = Promise.resolve();
  }

  /** Creates the first concrete index and its alias unless the alias exists. */
  private ensureIndex(): Promise<void> {
    this.ready ??= (async () => {
      if (await this.client.indices.existsAlias({ name: this.alias })) return;
      await this.createIndexBehindAlias(null);
    })().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  private async createConcreteIndex(): Promise<string> {
    const concrete = `${this.alias}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
    await this.client.indices.create({ index: concrete, mappings: AID_MAPPING });
    return concrete;
  }

  private async createIndexBehindAlias(previous: string | null): Promise<void> {
    const concrete = await this.createConcreteIndex();
    const actions: estypes.IndicesUpdateAliasesAction[] = [
      { add: { index: concrete, alias: this.alias, is_write_index: true } },
    ];
    if (previous) actions.unshift({ remove: { index: previous, alias: this.alias } });
    try {
      await this.client.indices.updateAliases({ actions });
    } catch (error) {
      // Another instance created the alias first: keep theirs.
      await this.client.indices.delete({ index: concrete }).catch(() => undefined);
      if (previous) throw error;
    }
  }

  async upsert(records: AidRecord[]): Promise<{ changed: number; changedTaxCodes: string[] }> {
    records.forEach(validateAid);
    await this.ensureIndex();
    // Within one batch the later duplicate wins.
    let pending = [...new Map(records.map((r) => [r.idComponenteAiuto, r])).values()];
    let changed = 0;
    const changedTaxCodes: string[] = [];
    for (let round = 1; pending.length > 0; round++) {
      if (round > (this.options.maxRejectedRetries ?? 5) + 3) {
        throw new Error(
          `Elasticsearch kept rejecting ${pending.length} aids (first: ${pending[0]?.idComponenteAiuto})`,
        );
      }
      const existing = await this.currentDocs(pending.map((r) => r.idComponenteAiuto));
      const settled = await this.settledImports([...new Set(pending.map((r) => r.sourceFile))]);
      const operations: (BulkOperation | StoredAid)[] = [];
      const planned: { record: AidRecord; isChange: boolean; previousTaxCode?: string }[] = [];
      for (const record of pending) {
        const current = existing.get(record.idComponenteAiuto);
        if (current && sameContent(current.doc, record) && current.doc.importId === record.importId) continue;
        // a late message of an import a newer one replaced (import-order.ts): the newer copy stays
        if (current && isOlderImport(record.importId, current.doc.importId)) continue;
        // a late aid of an import older than its file's last completed import: settled without it
        const settledImport = settled.get(record.sourceFile);
        if (settledImport !== undefined && isOlderImport(record.importId, settledImport)) continue;
        const _index = current?.index ?? this.alias;
        operations.push(
          current
            ? {
                index: {
                  _index,
                  _id: record.idComponenteAiuto,
                  if_seq_no: current.seqNo,
                  if_primary_term: current.primaryTerm,
                },
              }
            : { create: { _index, _id: record.idComponenteAiuto } },
          toStoredAid(record),
        );
        planned.push({
          record,
          isChange: !current || !sameContent(current.doc, record),
          previousTaxCode: current?.doc.codiceFiscaleBeneficiario,
        });
      }
      if (planned.length === 0) break;
      const response = await this.client.bulk({ operations, refresh: this.options.refresh ?? 'wait_for' });
      const retry: AidRecord[] = [];
      let rejected = false;
      response.items.forEach((item, i) => {
        const result = item.create ?? item.index;
        const plan = planned[i]!;
        if (!result?.error) {
          if (plan.isChange) {
            changed += 1;
            changedTaxCodes.push(plan.record.codiceFiscaleBeneficiario);
            if (
              plan.previousTaxCode !== undefined &&
              plan.previousTaxCode !== plan.record.codiceFiscaleBeneficiario
            ) {
              changedTaxCodes.push(plan.previousTaxCode);
            }
          }
          return;
        }
        if (result.status === 409) retry.push(plan.record);
        else if (result.status === 429 || result.status >= 500) {
          // too busy, or a shard unavailable (a node restarting): back off and send them again
          rejected = true;
          retry.push(plan.record);
        } else {
          // 400 and the like: the aid itself does not fit the mapping, whatever the cluster's state
          throw new RecordRejectedError(
            `Elasticsearch refused aid ${plan.record.idComponenteAiuto}: ${result.error.type}: ${result.error.reason ?? ''}`,
          );
        }
      });
      if (rejected) await sleep((this.options.rejectedBackoffMs ?? 200) * 2 ** (round - 1));
      pending = retry;
    }
    return { changed, changedTaxCodes: uniqueSorted(changedTaxCodes) };
  }

  private async currentDocs(
    ids: string[],
  ): Promise<Map<string, { doc: AidRecord; seqNo: number; primaryTerm: number; index: string }>> {
    const found = new Map<string, { doc: AidRecord; seqNo: number; primaryTerm: number; index: string }>();
    if (ids.length === 0) return found;
    const response = await this.client.mget<StoredAid>({ index: this.alias, ids });
    for (const doc of response.docs) {
      if (
        'found' in doc &&
        doc.found &&
        doc._source &&
        doc._seq_no !== undefined &&
        doc._primary_term !== undefined
      ) {
        found.set(doc._id, {
          doc: fromStoredAid(doc._source),
          seqNo: doc._seq_no,
          primaryTerm: doc._primary_term,
          index: doc._index,
        });
      }
    }
    return found;
  }

  /** The last completed import of each file that has one (a missing index: none yet). */
  private async settledImports(sourceFiles: string[]): Promise<Map<string, string>> {
    const settled = new Map<string, string>();
    if (sourceFiles.length === 0) return settled;
    try {
      const response = await this.client.mget<{ importId: string }>({
        index: this.settledIndex,
        ids: sourceFiles,
      });
      for (const doc of response.docs)
        if ('found' in doc && doc.found && doc._source) settled.set(doc._id, doc._source.importId);
    } catch (error) {
      if ((error as { meta?: { statusCode?: number } }).meta?.statusCode !== 404) throw error;
    }
    return settled;
  }

  /** Records `importId` as the file's last completed import unless a newer one is recorded. */
  private async settle(sourceFile: string, importId: string): Promise<void> {
    await this.client.update({
      index: this.settledIndex,
      id: sourceFile,
      script: {
        source:
          'if (ctx._source.importId == null || ctx._source.importId.compareTo(params.importId) < 0) ' +
          '{ ctx._source.importId = params.importId } else { ctx.op = "noop" }',
        params: { importId },
      },
      upsert: { importId },
      retry_on_conflict: 5,
      refresh: true,
    });
  }

  async withdraw(ids: string[]): Promise<{ count: number; taxCodes: string[] }> {
    await this.ensureIndex();
    const existing = await this.currentDocs([...new Set(ids)]);
    return this.deleteDocs(
      [...existing.entries()].map(([id, current]) => ({
        id,
        index: current.index,
        taxCode: current.doc.codiceFiscaleBeneficiario,
      })),
    );
  }

  async withdrawBySourceFile(
    sourceFile: string,
    keepImportId?: string,
  ): Promise<{ count: number; taxCodes: string[] }> {
    await this.ensureIndex();
    if (keepImportId !== undefined && isOrderedImportId(keepImportId))
      await this.settle(sourceFile, keepImportId);
    const query: estypes.QueryDslQueryContainer = {
      bool: {
        filter: [{ term: { sourceFile } }],
        // an ordered import removes what older imports wrote, never a newer import's aids
        ...(keepImportId === undefined
          ? {}
          : isOrderedImportId(keepImportId)
            ? { must: [{ range: { importId: { lt: keepImportId } } }] }
            : { must_not: [{ term: { importId: keepImportId } }] }),
      },
    };
    const taxCodes = await this.taxCodesMatching(query);
    if (taxCodes.length === 0) return { count: 0, taxCodes: [] };
    const response = await this.client.deleteByQuery({
      index: this.alias,
      query,
      conflicts: 'proceed',
      refresh: true,
      slices: 'auto',
    });
    return { count: response.deleted ?? 0, taxCodes };
  }

  /** The distinct tax codes of the documents a query matches. */
  private async taxCodesMatching(query: estypes.QueryDslQueryContainer): Promise<string[]> {
    const taxCodes: string[] = [];
    for await (const { key } of this.termBuckets('taxCodes', 'taxCode', 'codiceFiscaleBeneficiario', query))
      taxCodes.push(key);
    return uniqueSorted(taxCodes);
  }

  /** Every value of a keyword field with its document count: a composite aggregation, page by page. */
  private async *termBuckets(
    aggregation: string,
    source: string,
    field: string,
    query?: estypes.QueryDslQueryContainer,
  ): AsyncGenerator<{ key: string; count: number }> {
    let after: Record<string, estypes.FieldValue> | undefined;
    for (;;) {
      const response = await this.client.search({
        index: this.alias,
        size: 0,
        ...(query ? { query } : {}),
        aggs: {
          [aggregation]: {
            composite: {
              size: 1000,
              sources: [{ [source]: { terms: { field } } }],
              ...(after ? { after } : {}),
            },
          },
        },
      });
      const agg = response.aggregations?.[aggregation] as estypes.AggregationsCompositeAggregate | undefined;
      const buckets = (agg?.buckets ?? []) as estypes.AggregationsCompositeBucket[];
      for (const bucket of buckets) yield { key: String(bucket.key[source]), count: bucket.doc_count };
      if (buckets.length === 0 || !agg?.after_key) return;
      after = agg.after_key;
    }
  }

  private async deleteDocs(
    docs: { id: string; index: string; taxCode: string }[],
  ): Promise<{ count: number; taxCodes: string[] }> {
    if (docs.length === 0) return { count: 0, taxCodes: [] };
    const response = await this.client.bulk({
      operations: docs.map((doc) => ({ delete: { _index: doc.index, _id: doc.id } })),
      refresh: this.options.refresh ?? 'wait_for',
    });
    const deleted = docs.filter((_, i) => response.items[i]?.delete?.result === 'deleted');
    return { count: deleted.length, taxCodes: uniqueSorted(deleted.map((d) => d.taxCode)) };
  }

  async search(query: AidSearch): Promise<AidRecord[]> {
    if (query.taxCodes.length === 0) return [];
    await this.ensureIndex();
    const hits = await this.allHits(buildSearchQuery(query), SEARCH_SORT, query.limit);
    return hits.map((hit) => fromStoredAid(hit._source!));
  }

  /** Every hit (or the first `limit`), paged with search_after on the sort (the window is capped at 10 000). */
  private async allHits(
    query: estypes.QueryDslQueryContainer,
    sort: estypes.Sort,
    limit?: number,
  ): Promise<estypes.SearchHit<StoredAid>[]> {
    const hits: estypes.SearchHit<StoredAid>[] = [];
    let after: estypes.SortResults | undefined;
    for (;;) {
      const size = Math.min(PAGE, limit === undefined ? PAGE : limit - hits.length);
      if (size <= 0) return hits;
      const response = await this.client.search<StoredAid>({
        index: this.alias,
        query,
        sort,
        size,
        seq_no_primary_term: false,
        ...(after ? { search_after: after } : {}),
      });
      const page = response.hits.hits;
      hits.push(...page);
      if (page.length < size) return hits;
      after = page[page.length - 1]?.sort;
    }
  }

  async get(idComponenteAiuto: string): Promise<AidRecord | null> {
    await this.ensureIndex();
    const current = await this.currentDocs([idComponenteAiuto]);
    return current.get(idComponenteAiuto)?.doc ?? null;
  }

  async count(): Promise<number> {
    await this.ensureIndex();
    return (await this.client.count({ index: this.alias })).count;
  }

  async statsBySourceFile(): Promise<SourceFileStats[]> {
    await this.ensureIndex();
    const stats: SourceFileStats[] = [];
    for await (const { key, count } of this.termBuckets('files', 'sourceFile', 'sourceFile'))
      stats.push({ sourceFile: key, count });
    return stats;
  }

  /** An empty index swapped in atomically behind the alias. */
  async clear(): Promise<void> {
    await this.ensureIndex();
    const current = Object.keys(await this.client.indices.getAlias({ name: this.alias }));
    await this.createIndexBehindAlias(current[0] ?? null);
    for (const old of current) await this.client.indices.delete({ index: old }).catch(() => undefined);
    await this.client.indices.delete({ index: this.settledIndex }).catch(() => undefined);
  }

  /** A new concrete index, filled through its own adapter; the alias moves to it on complete(). */
  async beginRebuild(): Promise<AidIndexRebuild> {
    await this.ensureIndex();
    const concrete = await this.createConcreteIndex();
    const target = new ElasticsearchAidIndex({
      ...this.options,
      client: this.client,
      concreteIndex: concrete,
    });
    return {
      target,
      complete: async () => {
        const previous = Object.keys(await this.client.indices.getAlias({ name: this.alias }));
        await this.client.indices.updateAliases({
          actions: [
            ...previous.map((index) => ({ remove: { index, alias: this.alias } })),
            { add: { index: concrete, alias: this.alias, is_write_index: true } },
          ],
        });
        for (const old of previous) await this.client.indices.delete({ index: old }).catch(() => undefined);
      },
      abandon: async () => {
        await this.client.indices.delete({ index: concrete }).catch(() => undefined);
      },
    };
  }

  async close(): Promise<void> {
    if (!this.options.client) await this.client.close();
  }
}

/** "http://a:9200, http://b:9200" → each node's URL. */
export function elasticsearchNodes(urls: string): string[] {
  return urls
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url.length > 0);
}

export function openElasticsearchAidIndex(options: ElasticsearchAidIndexOptions): ElasticsearchAidIndex {
  return new ElasticsearchAidIndex(options);
}
