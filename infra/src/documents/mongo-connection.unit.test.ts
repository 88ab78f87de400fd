import { mongoConnectionOptions } from './mongo-document-store';

describe('MongoDB connection settings', () => {
  it('acknowledge a write once a majority holds it, read from the primary what a majority holds, and bound a hung call', () => {
    const options = mongoConnectionOptions('rna');
    expect(options).toMatchObject({
      dbName: 'rna',
      writeConcern: { w: 'majority', journal: true },
      readPreference: 'primary',
      readConcern: { level: 'majority' },
    });
    expect(options.socketTimeoutMS).toBeGreaterThan(0);
    expect(options.serverSelectionTimeoutMS).toBeGreaterThan(0);
  });
});
