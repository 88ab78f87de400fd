import { elasticsearchNodes } from './elasticsearch-aid-index';

describe('Elasticsearch nodes', () => {
  it('takes every node of ELASTICSEARCH_URL, so that one restarting does not stop the index', () => {
    expect(elasticsearchNodes('http://es1:9200, http://es2:9200,,http://es3:9200 ')).toEqual([
      'http://es1:9200',
      'http://es2:9200',
      'http://es3:9200',
    ]);
    expect(elasticsearchNodes('http://localhost:9200')).toEqual(['http://localhost:9200']);
  });
});
