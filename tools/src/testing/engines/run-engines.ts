/**
 * `npm run test:engines`: every contract suite, and the multi-process scenario (two API, two projector
 * and one sync process), against the real engines — EventStoreDB, Kafka, Elasticsearch and MongoDB in
 * the images docker-compose.yml runs, started here with testcontainers and removed afterwards.
 * Engines whose variable is set already (EVENTSTORE_URL, KAFKA_BROKERS, ELASTICSEARCH_URL,
 * MONGODB_URI) are used as they are. Without a Docker engine it says what it could not run, and why.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import yaml from 'js-yaml';
import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

type EngineVariable = 'EVENTSTORE_URL' | 'KAFKA_BROKERS' | 'ELASTICSEARCH_URL' | 'MONGODB_URI';

/** What runs against the engines: the contract suites, then the scenario on a database of its own. */
export const ENGINE_SUITES = ['infra/src', 'tools/src/testing'];
export const ENGINE_SCENARIO = ['tools/src/scale-out/leases'];

/**
 * The exit code when nothing could run: not 0, so that no pipeline reads "no engines here" as "the
 * engines pass". TEST_ENGINES_OPTIONAL=1 makes it 0 where their absence is expected and said.
 */
export const NOT_RUN_EXIT_CODE = 3;

export const SKIPPED_WITHOUT_DOCKER = [
  'the EventStoreDB, Elasticsearch and MongoDB (documents and GridFS blobs) contract suites',
  'the Kafka contract suite against a real broker (npm test runs it against librdkafka’s mock)',
  'the multi-process scenario (2 API, 2 projector, 1 sync) on those engines',
];

/** The images compose runs, so that the suites test what is deployed. */
export function composeImages(
  composeText: string,
): Record<'eventstore' | 'kafka' | 'elasticsearch' | 'mongodb', string> {
  const compose = yaml.load(composeText) as { services: Record<string, { image?: string }> };
  const image = (service: string) => {
    const name = compose.services[service]?.image;
    if (!name) throw new Error(`docker-compose.yml has no image for ${service}`);
    return name;
  };
  return {
    eventstore: image('eventstore'),
    kafka: image('kafka'),
    elasticsearch: image('elasticsearch'),
    mongodb: image('mongodb'),
  };
}

/** A host port nobody uses: Kafka must advertise the address clients reach it at before it starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

async function startEngines(
  wanted: EngineVariable[],
  images: ReturnType<typeof composeImages>,
  host: string,
): Promise<{ env: Partial<Record<EngineVariable, string>>; started: StartedTestContainer[] }> {
  const env: Partial<Record<EngineVariable, string>> = {};
  const started: StartedTestContainer[] = [];
  const keep = (container: StartedTestContainer) => (started.push(container), container);
  const starts: Promise<void>[] = [];
  if (wanted.includes('EVENTSTORE_URL'))
    starts.push(
      new GenericContainer(images.eventstore)
        .withEnvironment({ EVENTSTORE_INSECURE: 'true', EVENTSTORE_RUN_PROJECTIONS: 'None' })
        .withExposedPorts(2113)
        .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
        .withStartupTimeout(120_000)
        .start()
        .then(keep)
        .then((c) => {
          env.EVENTSTORE_URL = `esdb://${c.getHost()}:${c.getMappedPort(2113)}?tls=false`;
        }),
    );
  if (wanted.includes('KAFKA_BROKERS'))
    starts.push(
      freePort().then(async (port) => {
        const c = keep(
          await new GenericContainer(images.kafka)
            .withEnvironment({
              KAFKA_NODE_ID: '1',
              KAFKA_PROCESS_ROLES: 'broker,controller',
              KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
              KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://${host}:${port}`,
              KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
              KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
              KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
              KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'true',
            })
            .withExposedPorts({ container: 9092, host: port })
            .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
            .withStartupTimeout(120_000)
            .start(),
        );
        env.KAFKA_BROKERS = `${c.getHost()}:${port}`;
      }),
    );
  if (wanted.includes('ELASTICSEARCH_URL'))
    starts.push(
      new GenericContainer(images.elasticsearch)
        .withEnvironment({
          'discovery.type': 'single-node',
          'xpack.security.enabled': 'false',
          ES_JAVA_OPTS: '-Xms512m -Xmx512m',
        })
        .withExposedPorts(9200)
        .withWaitStrategy(Wait.forHttp('/_cluster/health?wait_for_status=yellow', 9200).forStatusCode(200))
        .withStartupTimeout(180_000)
        .start()
        .then(keep)
        .then((c) => {
          env.ELASTICSEARCH_URL = `http://${c.getHost()}:${c.getMappedPort(9200)}`;
        }),
    );
  if (wanted.includes('MONGODB_URI'))
    starts.push(
      // a one-node replica set, as the compose file runs it: majority writes and reads, renames
      new GenericContainer(images.mongodb)
        .withCommand(['--replSet', 'rs0', '--bind_ip_all'])
        .withExposedPorts(27017)
        .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
        .withStartupTimeout(120_000)
        .start()
        .then(keep)
        .then(async (c) => {
          const initiated = await c.exec([
            'mongosh',
            '--quiet',
            '--eval',
            "rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: 'localhost:27017' }] }).ok; " +
              'while (!db.hello().isWritablePrimary) sleep(200); print("primary")',
          ]);
          if (initiated.exitCode !== 0) throw new Error(`MongoDB replica set: ${initiated.output}`);
          // the member knows itself as localhost:27017, which is another port from here: talk to it directly
          env.MONGODB_URI = `mongodb://${c.getHost()}:${c.getMappedPort(27017)}/rna_contract?directConnection=true`;
        }),
    );
  const results = await Promise.allSettled(starts);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((c) => c.stop().catch(() => undefined)));
    throw failed.reason;
  }
  return { env, started };
}

function jest(paths: string[], env: NodeJS.ProcessEnv): number {
  const run = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', '.bin', 'jest'), '--runInBand', ...paths],
    {
      cwd: ROOT,
      env,
      stdio: 'inherit',
    },
  );
  return run.status ?? 1;
}

/** The engine variables a run was given, by name. */
function givenEngines(env: NodeJS.ProcessEnv): Partial<Record<EngineVariable, string>> {
  const given: Partial<Record<EngineVariable, string>> = {};
  for (const name of ['EVENTSTORE_URL', 'KAFKA_BROKERS', 'ELASTICSEARCH_URL', 'MONGODB_URI'] as const) {
    const value = env[name]?.trim();
    if (value) given[name] = value;
  }
  return given;
}

export async function runEngineSuites(
  print: (line: string) => void = (line) => console.log(line),
  /** The host of the Docker engine testcontainers finds (throws when there is none). */
  dockerHost: () => Promise<string> = async () =>
    (await getContainerRuntimeClient()).info.containerRuntime.host,
): Promise<number> {
  const given = givenEngines(process.env);
  const missing = (['EVENTSTORE_URL', 'KAFKA_BROKERS', 'ELASTICSEARCH_URL', 'MONGODB_URI'] as const).filter(
    (name) => !given[name],
  );
  let started: StartedTestContainer[] = [];
  let env = { ...given };
  if (missing.length > 0) {
    let host: string;
    try {
      host = await dockerHost();
    } catch (error) {
      print(
        `test:engines SKIPPED: no Docker engine is reachable (${error instanceof Error ? error.message.split('\n')[0] : String(error)}).`,
      );
      print('Not run here:');
      for (const line of SKIPPED_WITHOUT_DOCKER) print(`  - ${line}`);
      print(
        'Run it where Docker runs, or set EVENTSTORE_URL, KAFKA_BROKERS, ELASTICSEARCH_URL and MONGODB_URI to engines of your own.',
      );
      if (process.env.TEST_ENGINES_OPTIONAL === '1') return 0;
      print(`Exit code ${NOT_RUN_EXIT_CODE}: nothing was tested (TEST_ENGINES_OPTIONAL=1 accepts that).`);
      return NOT_RUN_EXIT_CODE;
    }
    const images = composeImages(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'));
    print(`test:engines: starting ${missing.join(', ')} from the compose images…`);
    const engines = await startEngines(missing, images, host);
    started = engines.started;
    env = { ...given, ...engines.env };
  }
  try {
    print(`test:engines: contract suites against ${Object.keys(env).join(', ')}`);
    const contracts = jest(ENGINE_SUITES, { ...process.env, ...env });
    // The scenario on a database of its own, so that the suites' data does not meet its read models.
    const scenarioDb = new URL(env.MONGODB_URI!);
    scenarioDb.pathname = '/rna_scenario';
    const scenarioEnv = { ...process.env, ...env, MONGODB_URI: scenarioDb.toString() };
    print('test:engines: the multi-process scenario (2 API, 2 projector, 1 sync) on the engines');
    const scenario = jest(ENGINE_SCENARIO, scenarioEnv);
    return contracts !== 0 ? contracts : scenario;
  } finally {
    await Promise.all(started.map((container) => container.stop().catch(() => undefined)));
  }
}

if (require.main === module) {
  runEngineSuites()
    .then((code) => process.exit(code))
    .catch((error: unknown) => {
      console.error(`test:engines failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}
