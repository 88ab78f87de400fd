/**
 * `npm run demo`: a working portal in one command, offline. Generates a register archive, serves
 * it with the local mirror, starts the portal on ./data-demo (never ./data) pointed at the mirror,
 * creates a demo administrator and a demo client, and starts a sync of the last year.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { generateArchive } from '../generator/generate';
import { recentMonths } from '../e2e/harness/archive';
import { signInByApi, type ApiClient } from '../e2e/harness/api';
import { startFullPortal } from '../e2e/harness/full-portal';
import { startMirror } from '../rna-mirror/server';

const DEMO_ADMIN = { email: 'admin@demo.local', password: 'Demo-admin-2024' } as const;
const DEMO_CLIENT = { email: 'cliente@demo.local', password: 'Demo-cliente-2024' } as const;

async function ensureArchive(dir: string): Promise<void> {
  if (existsSync(dir)) return; // a restart serves the same files: the next sync skips them
  process.stdout.write('Genero un archivio RNA di prova (6 mesi)…\n');
  await generateArchive({
    outDir: dir,
    months: recentMonths(new Date(), 6),
    aids: 3000,
    beneficiaries: 120,
    seed: 2024,
    zip: true,
    truthFile: null,
  });
}

/** Invites the demo client and sets its password, unless a previous run already did. */
async function ensureDemoClient(baseUrl: string, admin: ApiClient): Promise<void> {
  const existing = await admin.call<{ email: string }[]>('GET', '/clients');
  if (existing.some((client) => client.email === DEMO_CLIENT.email)) return;
  const invited = await admin.call<{ id: string; invitationCode: string }>('POST', '/clients/invite', {
    email: DEMO_CLIENT.email,
  });
  await admin.call('PUT', `/clients/${invited.id}/limits`, {
    availableYearlySearches: 100,
    remainingSearches: 100,
    endDate: Date.now() + 365 * 86_400_000,
  });
  await admin.call('PUT', `/clients/${invited.id}/pdf-enabled`, { enabled: true });
  await admin.call('PUT', `/clients/${invited.id}/enable-variation-alerts`, { enable: true });
  const client = await signInByApi(baseUrl, DEMO_CLIENT.email, invited.invitationCode);
  await client.call('PUT', '/users/change-password', {
    password: invited.invitationCode,
    newPassword: DEMO_CLIENT.password,
  });
}

async function main(): Promise<void> {
  const dataDir = path.resolve(process.env.DATA_DIR ?? 'data-demo');
  const registerDir = path.join(dataDir, 'register-files');
  await ensureArchive(registerDir);
  const mirror = await startMirror({ dir: registerDir, host: '127.0.0.1' });
  const port = process.env.PORT ?? '8080';
  const portal = await startFullPortal({
    env: {
      DATA_DIR: path.join(dataDir, 'portal'),
      PORT: port,
      RNA_BASE_URL: mirror.url,
      ADMIN_EMAIL: DEMO_ADMIN.email,
      ADMIN_PASSWORD: DEMO_ADMIN.password,
      PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
      CHROMIUM_PATH: process.env.CHROMIUM_PATH,
    },
    logger: pino({ level: 'warn' }),
    host: '0.0.0.0',
  });
  const baseUrl = `http://127.0.0.1:${portal.port}`;
  const admin = await signInByApi(baseUrl, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await ensureDemoClient(baseUrl, admin);
  try {
    await admin.call('POST', '/sync', { type: 'LAST_YEAR' });
  } catch (error) {
    // S001: a run is already going (a restart resumes it)
    if (!String(error).includes('S001')) throw error;
  }
  process.stdout.write(
    [
      '',
      `Portale demo su http://localhost:${portal.port}  (registro RNA simulato su ${mirror.url})`,
      `  amministratore: ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`,
      `  cliente:        ${DEMO_CLIENT.email} / ${DEMO_CLIENT.password}`,
      'Sincronizzazione dell’ultimo anno avviata: seguila in Archivio.',
      `Dati in ${dataDir} (le mail sono file .eml in ${path.join(dataDir, 'portal', 'outbox')}). Ctrl+C per uscire.`,
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void portal
      .stop()
      .then(() => mirror.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`Demo non avviata: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
