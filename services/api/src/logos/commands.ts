/** Logos: uploads, PDF layout settings, deletion, and the built-in default logo. */
import { DomainError, streams, type Actor, type LogoDto, type PdfConfig } from '@rna/domain';
import { ConcurrencyError } from '@rna/infra';
import type { LogoReadModel } from '@rna/read-models/accounts';
import { DEFAULT_LOGO_ID, findLogo, logosReadModel } from '../accounts/read-models';
import { SYSTEM_ACTOR } from '../accounts/streams';
import type { ApiDeps } from '../http/deps';
import { DEFAULT_LOGO_FILE, drawDefaultLogo } from './default-logo';
import { isStoredLogoBounded, normaliseLogo } from './images';

export const MAX_LOGO_BYTES = 1024 * 1024;

export function toLogoDto(logo: LogoReadModel): LogoDto {
  return {
    id: logo.logoId,
    name: logo.name,
    fileName: logo.fileName,
    subRenewUrl: logo.subRenewUrl,
    pdfConfig: logo.pdfConfig,
  };
}

/** SPEC §3: the logo named default first, the others by name. */
export function sortLogos(logos: LogoReadModel[]): LogoReadModel[] {
  const isDefault = (logo: LogoReadModel) => logo.name.toLowerCase() === 'default';
  return [...logos].sort((a, b) => {
    if (isDefault(a) !== isDefault(b)) return isDefault(a) ? -1 : 1;
    return a.name.localeCompare(b.name, 'it', { sensitivity: 'base' }) || a.logoId - b.logoId;
  });
}

export async function listLogos(deps: ApiDeps): Promise<LogoDto[]> {
  return sortLogos(await logosReadModel(deps).find({ deleted: false })).map(toLogoDto);
}

export async function getLogoDto(deps: ApiDeps, logoId: number): Promise<LogoDto> {
  const logo = await findLogo(deps, logoId);
  if (!logo) throw new DomainError('U001', 'Logo non trovato');
  return toLogoDto(logo);
}

/** Ids are never reused (deleted logos stay as tombstones), so image names stay unique. */
async function nextLogoId(deps: ApiDeps): Promise<number> {
  const all = await logosReadModel(deps).find({});
  return Math.max(0, ...all.map((l) => l.logoId)) + 1;
}

export async function uploadLogo(
  deps: ApiDeps,
  by: Actor,
  input: { name: string; bytes: Buffer | null },
): Promise<number> {
  if (!input.bytes || input.bytes.length === 0) throw new DomainError('F001', 'Nessun file ricevuto');
  // decoded, bounded and re-encoded before anything is kept: the copy is what is stored and served
  const { bytes, type } = await normaliseLogo(input.bytes);
  let logoId = await nextLogoId(deps);
  for (let attempt = 0; attempt < 20; attempt++, logoId++) {
    const fileName = `logo-${logoId}.${type.extension}`;
    try {
      // The stream is claimed first: two uploads at once cannot take the same id.
      await deps.eventStore.appendToStream(
        streams.logo(logoId),
        [
          {
            type: 'LogoUploaded',
            data: {
              logoId,
              name: input.name,
              fileName,
              contentType: type.contentType,
              at: deps.clock().toISOString(),
              by,
            },
          },
        ],
        { expectedVersion: 'no_stream' },
      );
    } catch (error) {
      if (error instanceof ConcurrencyError) continue;
      throw error;
    }
    try {
      await deps.blobs.put(fileName, bytes, type.contentType);
    } catch (error) {
      await deps.eventStore.appendToStream(streams.logo(logoId), [
        { type: 'LogoDeleted', data: { logoId, at: deps.clock().toISOString(), by } },
      ]);
      deps.logger.error({ err: error }, 'logo image could not be stored');
      throw new DomainError('F001');
    }
    return logoId;
  }
  throw new DomainError('F001');
}

export async function deleteLogo(deps: ApiDeps, by: Actor, logoId: number): Promise<void> {
  if (logoId < 0) throw new DomainError('F002', 'I loghi predefiniti non si possono cancellare');
  const logo = await findLogo(deps, logoId);
  if (!logo) throw new DomainError('F002', 'Logo non trovato');
  const { currentVersion } = await deps.eventStore.readStream(streams.logo(logoId));
  try {
    await deps.eventStore.appendToStream(
      streams.logo(logoId),
      [{ type: 'LogoDeleted', data: { logoId, at: deps.clock().toISOString(), by } }],
      { expectedVersion: currentVersion },
    );
  } catch (error) {
    if (error instanceof ConcurrencyError) throw new DomainError('F002');
    throw error;
  }
  await deps.blobs.delete(logo.fileName);
}

export async function setPdfConfig(
  deps: ApiDeps,
  by: Actor,
  logoId: number,
  input: { pdfConfig: PdfConfig; subRenewUrl: string },
): Promise<void> {
  if (!(await findLogo(deps, logoId))) throw new DomainError('U001', 'Logo non trovato');
  await deps.eventStore.appendToStream(streams.logo(logoId), [
    { type: 'LogoPdfConfigSet', data: { logoId, ...input, at: deps.clock().toISOString(), by } },
  ]);
}

/** The built-in default logo exists from the first start (and its image is restored if lost). */
export async function ensureDefaultLogo(deps: ApiDeps): Promise<void> {
  if (!(await deps.blobs.exists(DEFAULT_LOGO_FILE)))
    await deps.blobs.put(DEFAULT_LOGO_FILE, drawDefaultLogo(), 'image/png');
  try {
    await deps.eventStore.appendToStream(
      streams.logo(DEFAULT_LOGO_ID),
      [
        {
          type: 'LogoUploaded',
          data: {
            logoId: DEFAULT_LOGO_ID,
            name: 'default',
            fileName: DEFAULT_LOGO_FILE,
            contentType: 'image/png',
            at: deps.clock().toISOString(),
            by: SYSTEM_ACTOR,
          },
        },
      ],
      { expectedVersion: 'no_stream' },
    );
  } catch (error) {
    if (!(error instanceof ConcurrencyError)) throw error;
  }
}

/**
 * Logos stored before uploads were decoded and bounded are brought within the same bounds once, at
 * start: from then on every logo served and embedded is a bounded copy. One that cannot be decoded
 * within the pixel limit is replaced by the default image (and logged), never left for a PDF to choke on.
 */
export async function normaliseStoredLogos(deps: ApiDeps): Promise<void> {
  for (const logo of await logosReadModel(deps).find({ deleted: false })) {
    if (logo.logoId < 0) continue;
    const blob = await deps.blobs.get(logo.fileName);
    if (!blob || (await isStoredLogoBounded(blob.bytes))) continue;
    try {
      const { bytes } = await normaliseLogo(blob.bytes);
      await deps.blobs.put(logo.fileName, bytes, blob.contentType);
      deps.logger.info({ logoId: logo.logoId }, 'stored logo scaled within bounds');
    } catch {
      await deps.blobs.put(logo.fileName, drawDefaultLogo(), 'image/png');
      deps.logger.warn(
        { logoId: logo.logoId },
        'stored logo could not be read within bounds: default image used',
      );
    }
  }
}
