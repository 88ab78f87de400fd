import type { RuntimeConfigDto } from '@rna/domain';

/** Defaults used when /config.json is unreachable (e.g. `vite dev` without the server). */
const defaults: RuntimeConfigDto = { version: 'dev', apiBaseUrl: '/api', forcedLastUpdate: null };

let current: RuntimeConfigDto = defaults;

/** Read once at start from the server, so one build serves every environment. */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfigDto> {
  try {
    const response = await fetchImpl('/config.json', { cache: 'no-store' });
    if (response.ok) {
      const body = (await response.json()) as Partial<RuntimeConfigDto>;
      current = {
        version: typeof body.version === 'string' ? body.version : defaults.version,
        apiBaseUrl:
          typeof body.apiBaseUrl === 'string' ? body.apiBaseUrl.replace(/\/$/, '') : defaults.apiBaseUrl,
        forcedLastUpdate: typeof body.forcedLastUpdate === 'number' ? body.forcedLastUpdate : null,
      };
    }
  } catch {
    current = defaults;
  }
  return current;
}

export function getRuntimeConfig(): RuntimeConfigDto {
  return current;
}

export function setRuntimeConfig(config: RuntimeConfigDto): void {
  current = config;
}

export function imageUrl(fileName: string): string {
  return `${current.apiBaseUrl}/images/${encodeURIComponent(fileName)}`;
}
