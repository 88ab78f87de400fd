// Child process: appends events to an event store file, then exits.
import { openSqliteEventStore } from '../../event-store/sqlite-event-store';

async function main(): Promise<void> {
  const [file = '', stream = 'child', countText = '1'] = process.argv.slice(2);
  const store = openSqliteEventStore(file);
  for (let i = 0; i < Number(countText); i++) {
    await store.appendToStream(stream, [{ type: 'AppendedByChild', data: { i, pid: process.pid } }]);
  }
  await store.close();
  process.stdout.write('appended\n');
}

void main();
