// lint as: infra/src/documents/fixture.ts
// Infra knows the domain only; read models are built on top of it.
import { ALL_PROJECTIONS } from '@rna/read-models';

export const projections = ALL_PROJECTIONS;
