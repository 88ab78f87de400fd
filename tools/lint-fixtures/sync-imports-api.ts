// lint as: services/sync/src/fixture.ts
// The sync worker reads the archive through events and read models, never through the API.
import { requestSync } from '@rna/api';

export const request = requestSync;
