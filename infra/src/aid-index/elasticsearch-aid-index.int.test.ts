/**
 * Elasticsearch aid index: the contract suite runs against a real cluster when ELASTICSEARCH_URL is set
 * (npm run test:engines). Here, request building and response mapping run against
 * @elastic/elasticsearch-mock, which answers at the HTTP layer of the real client.
 */
import { Client, errors } from '@elastic/elasticsearch';
import Mock from '@elastic/elasticsearch-mock';
import { describeAidIndexContract, sampleAid } from './contract';
import { orderedImportId } from '@rna/domain';
import { AID_MAPPING, openElasticsearchAidIndex } from './elasticsearch-aid-index';

const url = process.env.ELASTICSEARCH_URL;
if (url) {
  jest.setTimeout(60_000);
  let run = 0;
  describeAidIndexContract(`Elasticsearch (${url.replace(/\/\/[^@]*@/, '//')})`, async () => {
    run += 1;
    const alias = `rna-contract-${process.pid}-${Date.now()}-${run}`;
    return {
      open: async () => openElasticsearchAidIndex({ node: url, alias }),
      dispose: async () => {
        const client = new Client({ node: url });
        await client.indices.delete({ index: `${alias}-*` }).catch(() => undefined);
        await client.close();
      },
    };
  });
} else {
  describe('AidIndex contract: Elasticsearch', () => {
    it.skip('SKIPPED: ELASTICSEARCH_URL is not set (no Elasticsearch cluster here)', () => undefined);
  });
}

type Params = { method: string; path: string; body: unknown; querystring: Record<string, string> };

function mockedIndex() {
  const mock = new Mock();
  const client = new Client({ node: 'http://localhost:9200', Connection: mock.getConnection() });
  const requests: Params[] = [];
  const record = (params: unknown) => requests.push(params as Params);
  return {
    mock,
    client,
    requests,
    record,
    index: openElasticsearchAidIndex({ client, rejectedBackoffMs: 1 }),
  };
}

const notFound = (id: string) => ({ _index: 'rna-aids-1', _id: id, found: false });

describe('Elasticsearch aid index (mocked cluster)', () => {
  it('creates the index with the explicit mapping behind the alias on first use', async () => {
    const { mock, index, requests, record } = mockedIndex();
    mock.add(
      { method: 'HEAD', path: '/_alias/rna-aids' },
      () => new errors.ResponseError({ body: {}, statusCode: 404 } as never),
    );
    mock.add({ method: 'PUT', path: '/:index' }, (params) => (record(params), { acknowledged: true }));
    mock.add({ method: 'POST', path: '/_aliases' }, (params) => (record(params), { acknowledged: true }));
    mock.add({ method: ['GET', 'POST'], path: '/rna-aids/_count' }, () => ({ count: 0 }));
    await expect(index.count()).resolves.toBe(0);
    const create = requests.find((r) => r.method === 'PUT')!;
    expect(create.path).toMatch(/^\/rna-aids-\d+/);
    expect(create.body).toEqual({ mappings: AID_MAPPING });
    expect(AID_MAPPING.properties?.codiceFiscaleBeneficiario).toEqual({ type: 'keyword' });
    expect(AID_MAPPING.properties?.dataConcessione).toMatchObject({ type: 'date' });
    expect(AID_MAPPING.properties?.elementoDiAiutoCents).toEqual({ type: 'long' });
    const aliases = requests.find((r) => r.path === '/_aliases')!;
    expect(aliases.body).toEqual({
      actions: [{ add: { index: create.path.slice(1), alias: 'rna-aids', is_write_index: true } }],
    });
  });

  it('bulk-indexes new aids with create, retries only the items rejected with 429, reports changes', async () => {
    const { mock, index, requests, record } = mockedIndex();
    mock.add({ method: 'HEAD', path: '/_alias/rna-aids' }, () => '');
    mock.add({ method: 'POST', path: '/rna-aids/_mget' }, (params) => ({
      docs: ((params.body as { ids: string[] }).ids ?? []).map(notFound),
    }));
    let bulkCalls = 0;
    mock.add({ method: 'POST', path: '/_bulk' }, (params) => {
      record(params);
      bulkCalls += 1;
      const ops = (params.body as Record<string, { _id: string }>[]).filter((_, i) => i % 2 === 0);
      return {
        errors: bulkCalls === 1,
        items: ops.map((op, i) =>
          bulkCalls === 1 && i === 0
            ? {
                create: {
                  _id: op.create!._id,
                  status: 429,
                  error: { type: 'es_rejected_execution_exception', reason: 'queue full' },
                },
              }
            : { create: { _id: op.create!._id, status: 201, result: 'created' } },
        ),
      };
    });
    const result = await index.upsert([
      sampleAid({ idComponenteAiuto: '1', codiceFiscaleBeneficiario: 'RSSMRA80A01H501U' }),
      sampleAid({ idComponenteAiuto: '2' }),
    ]);
    expect(result).toEqual({ changed: 2, changedTaxCodes: ['01234567890', 'RSSMRA80A01H501U'] });
    expect(requests).toHaveLength(2);
    const [first, second] = requests as [Params, Params];
    expect(first.querystring).toMatchObject({ refresh: 'wait_for' });
    expect(first.body).toEqual([
      { create: { _index: 'rna-aids', _id: '1' } },
      {
        ...sampleAid({ idComponenteAiuto: '1', codiceFiscaleBeneficiario: 'RSSMRA80A01H501U' }),
        taxCodeKey: 'RSSMRA80A01H501U',
        idSort: 1,
      },
      { create: { _index: 'rna-aids', _id: '2' } },
      { ...sampleAid({ idComponenteAiuto: '2' }), taxCodeKey: '01234567890', idSort: 2 },
    ]);
    expect(
      (second.body as { create?: { _id: string } }[]).map((op) => op.create?._id).filter(Boolean),
    ).toEqual(['1']);
  });

  it('updates a known aid with its sequence number and skips an identical one', async () => {
    const { mock, index, requests, record } = mockedIndex();
    mock.add({ method: 'HEAD', path: '/_alias/rna-aids' }, () => '');
    mock.add({ method: 'POST', path: '/rna-aids/_mget' }, () => ({
      docs: [
        {
          _index: 'rna-aids-7',
          _id: '1',
          found: true,
          _seq_no: 12,
          _primary_term: 3,
          _source: { ...sampleAid({ idComponenteAiuto: '1' }), taxCodeKey: '01234567890', idSort: 1 },
        },
        {
          _index: 'rna-aids-7',
          _id: '2',
          found: true,
          _seq_no: 13,
          _primary_term: 3,
          _source: { ...sampleAid({ idComponenteAiuto: '2' }), taxCodeKey: '01234567890', idSort: 2 },
        },
      ],
    }));
    mock.add(
      { method: 'POST', path: '/_bulk' },
      (params) => (
        record(params),
        { errors: false, items: [{ index: { _id: '1', status: 200, result: 'updated' } }] }
      ),
    );
    const result = await index.upsert([
      sampleAid({ idComponenteAiuto: '1', elementoDiAiutoCents: 99 }),
      sampleAid({ idComponenteAiuto: '2' }),
    ]);
    expect(result).toEqual({ changed: 1, changedTaxCodes: ['01234567890'] });
    expect((requests[0]!.body as unknown[])[0]).toEqual({
      index: { _index: 'rna-aids-7', _id: '1', if_seq_no: 12, if_primary_term: 3 },
    });
    expect(requests[0]!.body as unknown[]).toHaveLength(2);
  });

  it('rejects an invalid record before sending anything', async () => {
    const { index } = mockedIndex();
    await expect(index.upsert([sampleAid({ dataConcessione: '15/03/2024' })])).rejects.toThrow(
      /dataConcessione/,
    );
  });

  it('searches normalised tax codes with date and de minimis filters, newest first, and strips index-only fields', async () => {
    const { mock, index, requests, record } = mockedIndex();
    mock.add({ method: 'HEAD', path: '/_alias/rna-aids' }, () => '');
    mock.add({ method: 'POST', path: '/rna-aids/_search' }, (params) => {
      record(params);
      return {
        hits: {
          total: { value: 1, relation: 'eq' },
          hits: [
            {
              _index: 'rna-aids-7',
              _id: '20',
              _source: { ...sampleAid({ idComponenteAiuto: '20' }), taxCodeKey: '01234567890', idSort: 20 },
              sort: [1, 20],
            },
          ],
        },
      };
    });
    const found = await index.search({
      taxCodes: [' rssmra 80a01h501u ', '01234567890'],
      dateFrom: '2023-01-01',
      deMinimisOnly: true,
      limit: 5,
    });
    expect(found).toEqual([sampleAid({ idComponenteAiuto: '20' })]);
    expect(requests[0]!.body).toMatchObject({
      query: {
        bool: {
          filter: [
            { terms: { taxCodeKey: ['RSSMRA80A01H501U', '01234567890'] } },
            { range: { dataConcessione: { gte: '2023-01-01' } } },
            {
              bool: {
                should: [
                  { term: { codProcedimento: '1' } },
                  { term: { desProcedimento: { value: 'De Minimis', case_insensitive: true } } },
                ],
                minimum_should_match: 1,
              },
            },
          ],
        },
      },
      sort: [{ dataConcessione: 'desc' }, { idSort: 'desc' }],
      size: 5,
    });
    await expect(index.search({ taxCodes: [] })).resolves.toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('clear swaps a fresh index in behind the alias in one call, then drops the old one', async () => {
    const { mock, index, requests, record } = mockedIndex();
    mock.add({ method: 'HEAD', path: '/_alias/rna-aids' }, () => '');
    mock.add({ method: 'GET', path: '/_alias/rna-aids' }, () => ({
      'rna-aids-old': { aliases: { 'rna-aids': {} } },
    }));
    mock.add({ method: 'PUT', path: '/:index' }, (params) => (record(params), { acknowledged: true }));
    mock.add({ method: 'POST', path: '/_aliases' }, (params) => (record(params), { acknowledged: true }));
    mock.add({ method: 'DELETE', path: '/:index' }, (params) => (record(params), { acknowledged: true }));
    await index.clear();
    const created = requests.find((r) => r.method === 'PUT')!.path.slice(1);
    // the old index goes, and with it what it knew of each file's last completed import
    expect(requests.map((r) => r.method)).toEqual(['PUT', 'POST', 'DELETE', 'DELETE']);
    expect(requests[1]!.body).toEqual({
      actions: [
        { remove: { index: 'rna-aids-old', alias: 'rna-aids' } },
        { add: { index: created, alias: 'rna-aids', is_write_index: true } },
      ],
    });
    expect(requests[2]!.path).toBe('/rna-aids-old');
    expect(requests[3]!.path).toBe('/rna-aids-settled-imports');
  });

  it('keeps out a late aid of an import older than its file’s last completed one, and records each completed import', async () => {
    const { mock, index, requests, record } = mockedIndex();
    const older = orderedImportId(7, 'run-a', 'f1');
    const newer = orderedImportId(8, 'run-a', 'f1');
    mock.add({ method: 'HEAD', path: '/_alias/rna-aids' }, () => '');
    mock.add({ method: 'POST', path: '/rna-aids/_mget' }, () => ({
      docs: [{ _index: 'rna-aids-7', _id: '2', found: false }],
    }));
    mock.add({ method: 'POST', path: '/rna-aids-settled-imports/_mget' }, () => ({
      docs: [{ _index: 'rna-aids-settled-imports', _id: 'f1', found: true, _source: { importId: newer } }],
    }));
    mock.add({ method: 'POST', path: '/_bulk' }, (params) => (record(params), { errors: false, items: [] }));
    // '2' is in no index (the newer import dropped it): the older import's late copy stays out
    await expect(
      index.upsert([sampleAid({ idComponenteAiuto: '2', sourceFile: 'f1', importId: older })]),
    ).resolves.toEqual({ changed: 0, changedTaxCodes: [] });
    expect(requests.filter((r) => r.path === '/_bulk')).toEqual([]);

    // a marker records its import as the file's last completed one, never going back
    mock.add({ method: 'POST', path: '/rna-aids-settled-imports/_update/:id' }, (params) => {
      record(params);
      return { result: 'updated' };
    });
    mock.add({ method: 'POST', path: '/rna-aids/_search' }, () => ({
      hits: { total: { value: 0, relation: 'eq' }, hits: [] },
      aggregations: { codes: { buckets: [] } },
    }));
    await index.withdrawBySourceFile('f1', newer);
    const update = requests.find((r) => r.path === '/rna-aids-settled-imports/_update/f1');
    expect(update?.body).toMatchObject({
      upsert: { importId: newer },
      script: { params: { importId: newer } },
    });
  });

  it('withdraws by source file with one delete-by-query, after listing the tax codes it touches', async () => {
    const { mock, index, requests, record } = mockedIndex();
    mock.add({ method: 'HEAD', path: '/_alias/rna-aids' }, () => '');
    let page = 0;
    mock.add({ method: 'POST', path: '/rna-aids/_search' }, (params) => {
      record(params);
      page += 1;
      // two pages of tax codes, then the end
      if (page === 1)
        return {
          hits: { hits: [] },
          aggregations: {
            taxCodes: {
              after_key: { taxCode: 'BBB' },
              buckets: [
                { key: { taxCode: 'AAA' }, doc_count: 2 },
                { key: { taxCode: 'BBB' }, doc_count: 1 },
              ],
            },
          },
        };
      return { hits: { hits: [] }, aggregations: { taxCodes: { buckets: [] } } };
    });
    mock.add({ method: 'POST', path: '/rna-aids/_delete_by_query' }, (params) => {
      record(params);
      return { deleted: 3, total: 3, failures: [] };
    });
    await expect(index.withdrawBySourceFile('f1', 'new')).resolves.toEqual({
      count: 3,
      taxCodes: ['AAA', 'BBB'],
    });
    const query = {
      bool: { filter: [{ term: { sourceFile: 'f1' } }], must_not: [{ term: { importId: 'new' } }] },
    };
    expect(requests.map((r) => r.path)).toEqual([
      '/rna-aids/_search',
      '/rna-aids/_search',
      '/rna-aids/_delete_by_query',
    ]);
    expect(requests[0]!.body).toMatchObject({ size: 0, query });
    expect(requests[1]!.body).toMatchObject({
      aggs: { taxCodes: { composite: { after: { taxCode: 'BBB' } } } },
    });
    expect(requests[2]!.body).toEqual({ query });
    expect(requests[2]!.querystring).toMatchObject({ conflicts: 'proceed', refresh: 'true' });
  });

  it('deletes nothing when no aid of the file is left to withdraw', async () => {
    const { mock, index, requests, record } = mockedIndex();
    mock.add({ method: 'HEAD', path: '/_alias/rna-aids' }, () => '');
    mock.add({ method: 'POST', path: '/rna-aids/_search' }, (params) => {
      record(params);
      return { hits: { hits: [] }, aggregations: { taxCodes: { buckets: [] } } };
    });
    await expect(index.withdrawBySourceFile('f1')).resolves.toEqual({ count: 0, taxCodes: [] });
    expect(requests.map((r) => r.path)).toEqual(['/rna-aids/_search']);
  });

  it('rebuilds into a new index that searches do not see until the alias moves to it', async () => {
    const { mock, index, requests, record } = mockedIndex();
    mock.add({ method: 'HEAD', path: '/_alias/rna-aids' }, () => '');
    mock.add({ method: 'GET', path: '/_alias/rna-aids' }, () => ({
      'rna-aids-old': { aliases: { 'rna-aids': {} } },
    }));
    mock.add({ method: 'PUT', path: '/:index' }, (params) => (record(params), { acknowledged: true }));
    mock.add({ method: 'POST', path: '/_mget' }, (params) => (record(params), { docs: [] }));
    mock.add({ method: 'POST', path: '/:index/_mget' }, (params) => (record(params), { docs: [] }));
    mock.add({ method: 'POST', path: '/_bulk' }, (params) => {
      record(params);
      return { errors: false, items: [{ create: { _id: '1', status: 201, result: 'created' } }] };
    });
    mock.add({ method: 'POST', path: '/_aliases' }, (params) => (record(params), { acknowledged: true }));
    mock.add({ method: 'DELETE', path: '/:index' }, (params) => (record(params), { acknowledged: true }));

    const rebuild = await index.beginRebuild();
    const created = requests[0]!.path.slice(1);
    expect(created).toMatch(/^rna-aids-\d+-\d+$/);
    await rebuild.target.upsert([sampleAid({ idComponenteAiuto: '1' })]);
    // the rebuild writes to the new index by name; the alias (what searches read) is untouched
    const bulk = requests.find((r) => r.path === '/_bulk')!;
    expect((bulk.body as unknown[])[0]).toEqual({ create: { _index: created, _id: '1' } });
    expect(requests.some((r) => r.path === '/_aliases')).toBe(false);

    await rebuild.complete();
    const swap = requests.find((r) => r.path === '/_aliases')!;
    expect(swap.body).toEqual({
      actions: [
        { remove: { index: 'rna-aids-old', alias: 'rna-aids' } },
        { add: { index: created, alias: 'rna-aids', is_write_index: true } },
      ],
    });
    expect(requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/rna-aids-old' });
  });

  it('an abandoned rebuild drops its index and leaves the one in service', async () => {
    const { mock, index, requests, record } = mockedIndex();
    mock.add({ method: 'HEAD', path: '/_alias/rna-aids' }, () => '');
    mock.add({ method: 'PUT', path: '/:index' }, (params) => (record(params), { acknowledged: true }));
    mock.add({ method: 'DELETE', path: '/:index' }, (params) => (record(params), { acknowledged: true }));
    const rebuild = await index.beginRebuild();
    await rebuild.abandon();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      requests[0] && `PUT ${requests[0].path}`,
      `DELETE ${requests[0]!.path}`,
    ]);
  });
});
