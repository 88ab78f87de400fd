// lint as: read-models/src/archive/fixture.ts
// Read models are shared by the services, so they may not depend on one of them.
import { startAidIndexProjection } from '@rna/projector/aids';

export const start = startAidIndexProjection;
