/** The portal-wide data source (archive or the register's live look-up), kept on the `settings` stream. */
import { streams, type Actor, type DataSource, type SettingsEvent } from '@rna/domain';
import { ConcurrencyError, type EventStore } from '@rna/infra';
import { recentValue, type RecentValue } from '../http/recent-value';

export interface DataSourceSetting {
  useLiveData: boolean;
  /** When it was last switched (ms), null = never (archive by default). */
  switchedAt: number | null;
}

export function evolveDataSource(state: DataSourceSetting, event: SettingsEvent): DataSourceSetting {
  return { useLiveData: event.data.useLiveData, switchedAt: Date.parse(event.data.at) };
}

async function readSetting(eventStore: EventStore): Promise<{ version: number; setting: DataSourceSetting }> {
  const { currentVersion, events } = await eventStore.readStream(streams.settings);
  let setting: DataSourceSetting = { useLiveData: false, switchedAt: null };
  for (const event of events) {
    if (event.type === 'DataSourceSwitched')
      setting = evolveDataSource(setting, event as unknown as SettingsEvent);
  }
  return { version: currentVersion, setting };
}

export async function readDataSource(eventStore: EventStore): Promise<DataSourceSetting> {
  return (await readSetting(eventStore)).setting;
}

/**
 * How long a search may rely on the setting it read: every search needs it and it changes a few times
 * a year, so it is read at most once a second. A switch made by this process is seen at once; one
 * made by another API process within this time.
 */
export const DATA_SOURCE_REUSE_MS = 1_000;
const forSearches = new WeakMap<EventStore, RecentValue<DataSourceSetting>>();

function settingForSearches(eventStore: EventStore): RecentValue<DataSourceSetting> {
  let setting = forSearches.get(eventStore);
  if (!setting) {
    setting = recentValue(DATA_SOURCE_REUSE_MS, () => readDataSource(eventStore));
    forSearches.set(eventStore, setting);
  }
  return setting;
}

export function dataSourceForSearch(eventStore: EventStore): Promise<DataSourceSetting> {
  return settingForSearches(eventStore).get();
}

export const dataSourceOf = (setting: DataSourceSetting): DataSource =>
  setting.useLiveData ? 'LIVE' : 'ARCHIVE';

/**
 * Decides the data source wanted from the current one and records it on the settings stream with
 * the version read (re-read and decided again on conflict); asking for the current state appends
 * nothing.
 */
async function switchDataSource(
  eventStore: EventStore,
  by: Actor,
  now: Date,
  wanted: (current: DataSourceSetting) => boolean,
): Promise<DataSourceSetting> {
  for (;;) {
    const { version, setting } = await readSetting(eventStore);
    const useLiveData = wanted(setting);
    if (setting.useLiveData === useLiveData) return setting;
    const event: SettingsEvent = {
      type: 'DataSourceSwitched',
      data: { useLiveData, at: now.toISOString(), by },
    };
    try {
      await eventStore.appendToStream(streams.settings, [event], {
        expectedVersion: version === -1 ? 'no_stream' : version,
      });
      const switched = evolveDataSource(setting, event);
      settingForSearches(eventStore).set(switched);
      return switched;
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
}

/**
 * Sets the data source to the one asked for (SPEC §7: the setting {useLiveData} is POSTed).
 * Idempotent: two administrators, or a double click, end in the state they asked for instead of
 * flipping it back.
 */
export function setDataSource(
  eventStore: EventStore,
  by: Actor,
  now: Date,
  useLiveData: boolean,
): Promise<DataSourceSetting> {
  return switchDataSource(eventStore, by, now, () => useLiveData);
}

/** Flips the setting; two admins toggling at once both get a consistent answer (re-read on conflict). */
export function toggleDataSource(eventStore: EventStore, by: Actor, now: Date): Promise<DataSourceSetting> {
  return switchDataSource(eventStore, by, now, (current) => !current.useLiveData);
}
